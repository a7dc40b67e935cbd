package otlp

import (
	"context"

	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// traceExporter sends spans as an OTLP/HTTP ExportTraceServiceRequest.
type traceExporter struct{ c *client }

// ExportSpans implements sdktrace.SpanExporter.
func (e *traceExporter) ExportSpans(ctx context.Context, spans []sdktrace.ReadOnlySpan) error {
	if len(spans) == 0 {
		return nil
	}
	return e.c.post(ctx, encodeSpans(spans))
}

// Shutdown implements sdktrace.SpanExporter: nothing is held.
func (e *traceExporter) Shutdown(context.Context) error { return nil }

// encodeSpans returns the ExportTraceServiceRequest of spans. It has one
// ResourceSpans per resource and one ScopeSpans per scope, in the order
// first met.
func encodeSpans(spans []sdktrace.ReadOnlySpan) []byte {
	type group struct {
		first int // a span of the group, for its resource and scope
		spans []sdktrace.ReadOnlySpan
	}
	type key struct {
		res                   any
		name, version, schema string
	}
	var order []key
	groups := map[key]*group{}
	for i, s := range spans {
		sc := s.InstrumentationScope()
		k := key{s.Resource(), sc.Name, sc.Version, sc.SchemaURL}
		g := groups[k]
		if g == nil {
			g = &group{first: i}
			groups[k] = g
			order = append(order, k)
		}
		g.spans = append(g.spans, s)
	}
	var p pb
	for _, k := range order {
		g := groups[k]
		first := spans[g.first]
		p.msg(1, func(p *pb) { // ExportTraceServiceRequest.resource_spans = 1
			p.msg(1, func(p *pb) { p.resourceMsg(first.Resource()) }) // ResourceSpans.resource = 1
			if r := first.Resource(); r != nil {
				p.string(3, r.SchemaURL()) // ResourceSpans.schema_url = 3
			}
			p.msg(2, func(p *pb) { // ResourceSpans.scope_spans = 2
				p.msg(1, func(p *pb) { p.scopeMsg(first.InstrumentationScope()) }) // ScopeSpans.scope = 1
				for _, s := range g.spans {
					p.msg(2, func(p *pb) { p.span(s) }) // ScopeSpans.spans = 2
				}
				p.string(3, k.schema) // ScopeSpans.schema_url = 3
			})
		})
	}
	return p.b
}

// span writes a Span.
func (p *pb) span(s sdktrace.ReadOnlySpan) {
	sc := s.SpanContext()
	tid, sid := sc.TraceID(), sc.SpanID()
	p.bytes(1, tid[:])                    // trace_id
	p.bytes(2, sid[:])                    // span_id
	p.string(3, sc.TraceState().String()) // trace_state
	if parent := s.Parent(); parent.IsValid() {
		psid := parent.SpanID()
		p.bytes(4, psid[:]) // parent_span_id
	}
	p.string(5, s.Name())                     // name
	p.uint(6, uint64(s.SpanKind()))           // kind: the API's numbering is OTLP's
	p.fixed64(7, nanos(s.StartTime()))        // start_time_unix_nano
	p.fixed64(8, nanos(s.EndTime()))          // end_time_unix_nano
	p.keyValues(9, s.Attributes())            // attributes
	p.uint(10, uint64(s.DroppedAttributes())) // dropped_attributes_count
	for _, ev := range s.Events() {
		p.msg(11, func(p *pb) { // events: Event
			p.fixed64(1, nanos(ev.Time))  // time_unix_nano
			p.string(2, ev.Name)          // name
			p.keyValues(3, ev.Attributes) // attributes
			p.uint(4, uint64(ev.DroppedAttributeCount))
		})
	}
	p.uint(12, uint64(s.DroppedEvents()))
	for _, l := range s.Links() {
		p.msg(13, func(p *pb) { // links: Link
			ltid, lsid := l.SpanContext.TraceID(), l.SpanContext.SpanID()
			p.bytes(1, ltid[:])
			p.bytes(2, lsid[:])
			p.string(3, l.SpanContext.TraceState().String())
			p.keyValues(4, l.Attributes)
			p.uint(5, uint64(l.DroppedAttributeCount))
			p.fixed32(6, uint32(l.SpanContext.TraceFlags())|0x100) // flags: trace flags, and "is remote known"
		})
	}
	p.uint(14, uint64(s.DroppedLinks()))
	if st := s.Status(); st.Code != codes.Unset {
		p.msg(15, func(p *pb) { // status: Status
			p.string(2, st.Description) // message
			code := uint64(1)           // STATUS_CODE_OK
			if st.Code == codes.Error {
				code = 2 // STATUS_CODE_ERROR
			}
			p.uint(3, code)
		})
	}
	flags := uint32(sc.TraceFlags()) | 0x100 // SPAN_FLAGS_CONTEXT_HAS_IS_REMOTE_MASK
	if s.Parent().IsRemote() {
		flags |= 0x200 // SPAN_FLAGS_CONTEXT_IS_REMOTE_MASK
	}
	p.fixed32(16, flags) // flags
}
