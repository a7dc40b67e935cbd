package sdk

import (
	"context"
	"fmt"
	"reflect"
	"sync"

	"github.com/toolhost/toolhost/internal/toolname"
	"github.com/toolhost/toolhost/tool"
)

// Func is the function behind a tool. It receives the decoded and
// validated arguments. It returns the content of a success outcome, or an
// error that becomes an error outcome. See [Transient] and the question
// helpers such as [Confirm]. [New] also takes functions that return other
// types than string. See [Result] and "Structured output" in the package
// documentation.
type Func[In any] func(ctx context.Context, in In) (string, error)

// Options holds the optional parts of a tool. A nil *Options is valid.
type Options[In any] struct {
	// Title is the tool's display name for humans, e.g. "Search files". It is
	// protocol v2, and MCP's title.
	Title string
	// Icons are images a host may show for the tool (protocol v2).
	Icons []tool.Icon
	// Description is longer text about the tool, served beside the summary.
	Description string
	// Examples shows how the tool is called, as free text.
	Examples string
	// Annotations are MCP tool annotations such as {"readOnlyHint": true}.
	Annotations map[string]any
	// Format renders a call's arguments for a human who is about to approve
	// it ("format_arguments"). It must have no side effects. If nil, the
	// arguments (defaults applied) are listed one per line, "name: value", in
	// struct-field order.
	Format func(ctx context.Context, in In) (string, error)
}

// Tool is one tool a binary serves. It has a name, a summary, an input
// struct reflected into parameters, and the function that runs it. Make
// one with [New] and serve it with [Main].
//
// The input struct's parameters are reflected lazily, on the first request
// that needs them. They are then cached. A Tool is safe for concurrent use.
type Tool struct {
	name, summary, description, examples, title string
	annotations                                 map[string]any
	icons                                       []tool.Icon
	inType                                      reflect.Type // the input struct
	outType                                     reflect.Type // the structured output, or nil
	err                                         error        // a problem found by New, reported on every request

	run    func(ctx context.Context, in any) (output, error) // in is a pointer to the input struct
	format func(ctx context.Context, in any) (string, error) // nil: default formatter

	once   sync.Once
	params *params                    // set by once
	output map[string]*tool.Parameter // set by once: the reflected output, when outType is not nil
}

// Name returns the tool's name.
func (t *Tool) Name() string { return t.name }

// New returns a tool named name that runs fn. The summary is one line shown
// to the model. opts may be nil. In must be a struct type. Use struct{}
// for a tool without parameters. Its exported fields are the tool's
// parameters. The package documentation describes the struct tags.
//
// What fn returns becomes the success outcome, according to Out:
//
//   - string: the text content (a [Func]).
//   - [Result]: text and content blocks, such as [Image].
//   - a struct, or a pointer to one: structured output. Out is reflected
//     into the tool's output schema with the same struct tags as In. The
//     value is returned as the outcome's "structured" value. The text
//     content is the value's String method when Out has one. Else it is
//     the value's JSON. Hosts of protocol v1 have no structured output and
//     get that text. A nil pointer is an error outcome.
//
// New does not panic. A problem with the name, In or Out is reported as an
// error outcome on every request. [sdktest.Schema] reports it in tests.
func New[In, Out any](name, summary string, fn func(ctx context.Context, in In) (Out, error), opts *Options[In]) *Tool {
	if opts == nil {
		opts = &Options[In]{}
	}
	t := &Tool{
		name:        name,
		summary:     summary,
		title:       opts.Title,
		icons:       opts.Icons,
		description: opts.Description,
		examples:    opts.Examples,
		annotations: opts.Annotations,
		inType:      reflect.TypeFor[In](),
		run: func(ctx context.Context, in any) (output, error) {
			out, err := fn(ctx, *in.(*In))
			if err != nil {
				return output{}, err
			}
			return makeOutput(out)
		},
	}
	outErr := error(nil)
	t.outType, outErr = structuredType(reflect.TypeFor[Out]())
	if opts.Format != nil {
		t.format = func(ctx context.Context, in any) (string, error) { return opts.Format(ctx, *in.(*In)) }
	}
	switch {
	case !toolname.Valid(name):
		t.err = fmt.Errorf("sdk: invalid tool name %q: a name must match %s", name, toolname.Pattern)
	case fn == nil:
		t.err = fmt.Errorf("sdk: tool %q has a nil function", name)
	case t.inType.Kind() != reflect.Struct:
		t.err = fmt.Errorf("sdk: tool %q: input type %s is not a struct", name, t.inType)
	case outErr != nil:
		t.err = fmt.Errorf("sdk: tool %q: %w", name, outErr)
	}
	return t
}

// parameters returns the reflected parameters, reflecting them on first use.
func (t *Tool) parameters() (*params, error) {
	if t.err != nil {
		return nil, t.err
	}
	t.once.Do(func() {
		t.params = reflectParams(t.name, t.inType, false)
		if t.params.err == nil && t.outType != nil {
			out := reflectParams(t.name, t.outType, true)
			if out.err != nil {
				t.params = &params{err: fmt.Errorf("%w (the output type)", out.err)}
				return
			}
			t.output = out.byName
		}
	})
	return t.params, t.params.err
}

// Definition returns the tool's definition as the "schema" action serves
// it. It returns the error that keeps it from being served instead.
func (t *Tool) Definition() (tool.Definition, error) {
	p, err := t.parameters()
	if err != nil {
		return tool.Definition{}, err
	}
	d := tool.Definition{
		Name:        t.name,
		Summary:     t.summary,
		Description: t.description,
		Parameters:  p.clone(),
		Annotations: t.annotations,
		Examples:    t.examples,
		Title:       t.title,
		Icons:       t.icons,
	}
	if t.output != nil {
		d.OutputSchema = tool.InputSchema(t.output) // a fresh map the caller may modify
	}
	return d, nil
}
