package otlp

import (
	"encoding/binary"
	"math"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/instrumentation"
	"go.opentelemetry.io/otel/sdk/resource"
)

// pb appends protocol buffers fields to a byte slice. It writes the little
// of the wire format OTLP's messages need. It is written here so that
// toolhost links no protobuf runtime (docs/dependencies.md). Field numbers
// are those of the opentelemetry-proto .proto files, named at each call.
type pb struct{ b []byte }

const (
	wireVarint = 0
	wireI64    = 1
	wireLen    = 2
	wireI32    = 5
)

func (p *pb) tag(num, wire int) { p.b = binary.AppendUvarint(p.b, uint64(num)<<3|uint64(wire)) }

// uint appends a varint field, left out when zero (proto3's default).
func (p *pb) uint(num int, v uint64) {
	if v != 0 {
		p.tag(num, wireVarint)
		p.b = binary.AppendUvarint(p.b, v)
	}
}

// fixed64 appends a fixed64 field, left out when zero.
func (p *pb) fixed64(num int, v uint64) {
	if v != 0 {
		p.fixed64Always(num, v)
	}
}

// fixed64Always appends a fixed64, sfixed64 or double field even when
// zero. That is a member of a oneof, or an optional field that is set.
func (p *pb) fixed64Always(num int, v uint64) {
	p.tag(num, wireI64)
	p.b = binary.LittleEndian.AppendUint64(p.b, v)
}

func (p *pb) double(num int, f float64) { p.fixed64Always(num, math.Float64bits(f)) }

func (p *pb) fixed32(num int, v uint32) {
	if v != 0 {
		p.tag(num, wireI32)
		p.b = binary.LittleEndian.AppendUint32(p.b, v)
	}
}

func (p *pb) bytes(num int, v []byte) {
	if len(v) != 0 {
		p.tag(num, wireLen)
		p.b = binary.AppendUvarint(p.b, uint64(len(v)))
		p.b = append(p.b, v...)
	}
}

func (p *pb) string(num int, s string) {
	if s != "" {
		p.tag(num, wireLen)
		p.b = binary.AppendUvarint(p.b, uint64(len(s)))
		p.b = append(p.b, s...)
	}
}

// msg appends the embedded message that f writes, even an empty one.
func (p *pb) msg(num int, f func(*pb)) {
	var c pb
	f(&c)
	p.tag(num, wireLen)
	p.b = binary.AppendUvarint(p.b, uint64(len(c.b)))
	p.b = append(p.b, c.b...)
}

// keyValues appends attributes as repeated KeyValue field num.
func (p *pb) keyValues(num int, kvs []attribute.KeyValue) {
	for _, kv := range kvs {
		p.msg(num, func(p *pb) {
			p.string(1, string(kv.Key))                    // KeyValue.key
			p.msg(2, func(p *pb) { p.anyValue(kv.Value) }) // KeyValue.value
		})
	}
}

// anyValue writes an AnyValue's oneof member for v.
func (p *pb) anyValue(v attribute.Value) {
	str := func(s string) { // string_value = 1, even when empty
		p.tag(1, wireLen)
		p.b = binary.AppendUvarint(p.b, uint64(len(s)))
		p.b = append(p.b, s...)
	}
	array := func(n int, each func(p *pb, i int)) { // array_value = 5: ArrayValue.values = 1
		p.msg(5, func(p *pb) {
			for i := range n {
				p.msg(1, func(p *pb) { each(p, i) })
			}
		})
	}
	switch v.Type() {
	case attribute.BOOL:
		p.tag(2, wireVarint)
		p.b = binary.AppendUvarint(p.b, b2u(v.AsBool()))
	case attribute.INT64:
		p.tag(3, wireVarint)
		p.b = binary.AppendUvarint(p.b, uint64(v.AsInt64()))
	case attribute.FLOAT64:
		p.double(4, v.AsFloat64())
	case attribute.STRING:
		str(v.AsString())
	case attribute.BOOLSLICE:
		s := v.AsBoolSlice()
		array(len(s), func(p *pb, i int) { p.anyValue(attribute.BoolValue(s[i])) })
	case attribute.INT64SLICE:
		s := v.AsInt64Slice()
		array(len(s), func(p *pb, i int) { p.anyValue(attribute.Int64Value(s[i])) })
	case attribute.FLOAT64SLICE:
		s := v.AsFloat64Slice()
		array(len(s), func(p *pb, i int) { p.anyValue(attribute.Float64Value(s[i])) })
	case attribute.STRINGSLICE:
		s := v.AsStringSlice()
		array(len(s), func(p *pb, i int) { p.anyValue(attribute.StringValue(s[i])) })
	case attribute.EMPTY:
		// an empty AnyValue
	default:
		str(v.Emit())
	}
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// resourceMsg writes a Resource: attributes = 1.
func (p *pb) resourceMsg(r *resource.Resource) {
	if r != nil {
		p.keyValues(1, r.Attributes())
	}
}

// scopeMsg writes an InstrumentationScope: name = 1, version = 2,
// attributes = 3.
func (p *pb) scopeMsg(s instrumentation.Scope) {
	p.string(1, s.Name)
	p.string(2, s.Version)
	p.keyValues(3, s.Attributes.ToSlice())
}

func binaryLE64(b []byte, v uint64) []byte { return binary.LittleEndian.AppendUint64(b, v) }

func float64bits(f float64) uint64 { return math.Float64bits(f) }

// nanos is t in Unix nanoseconds, 0 (unset) for the zero time.
func nanos(t time.Time) uint64 {
	if t.IsZero() {
		return 0
	}
	return uint64(t.UnixNano())
}
