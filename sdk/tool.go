package sdk

import (
	"context"
	"fmt"
	"reflect"
	"sync"

	"github.com/toolhost/toolhost/internal/toolname"
	"github.com/toolhost/toolhost/tool"
)

// Func is the function behind a tool: it receives the decoded and validated
// arguments and returns the content of a success outcome, or an error that
// becomes an error outcome (see [Transient] and the question helpers such as
// [Confirm]).
type Func[In any] func(ctx context.Context, in In) (string, error)

// Options holds the optional parts of a tool. A nil *Options is valid.
type Options[In any] struct {
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

// Tool is one tool a binary serves: a name, a summary, an input struct
// reflected into parameters, and the function that runs it. Make one with
// [New] and serve it with [Main].
//
// The input struct's parameters are reflected lazily, on the first request
// that needs them, and then cached. A Tool is safe for concurrent use.
type Tool struct {
	name, summary, description, examples string
	annotations                          map[string]any
	inType                               reflect.Type // the input struct
	err                                  error        // a problem found by New, reported on every request

	run    func(ctx context.Context, in any) (string, error) // in is a pointer to the input struct
	format func(ctx context.Context, in any) (string, error) // nil: default formatter

	once   sync.Once
	params *params // set by once
}

// Name returns the tool's name.
func (t *Tool) Name() string { return t.name }

// New returns a tool named name that runs fn. The summary is one line shown
// to the model; opts may be nil. In must be a struct type (struct{} for a
// tool without parameters); its exported fields are the tool's parameters
// (see the package documentation for the struct tags).
//
// New does not panic: a problem with the name or with In is reported as an
// error outcome on every request, and by [sdktest.Schema] in tests.
func New[In any](name, summary string, fn Func[In], opts *Options[In]) *Tool {
	if opts == nil {
		opts = &Options[In]{}
	}
	t := &Tool{
		name:        name,
		summary:     summary,
		description: opts.Description,
		examples:    opts.Examples,
		annotations: opts.Annotations,
		inType:      reflect.TypeFor[In](),
		run:         func(ctx context.Context, in any) (string, error) { return fn(ctx, *in.(*In)) },
	}
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
	}
	return t
}

// parameters returns the reflected parameters, reflecting them on first use.
func (t *Tool) parameters() (*params, error) {
	if t.err != nil {
		return nil, t.err
	}
	t.once.Do(func() { t.params = reflectParams(t.name, t.inType) })
	return t.params, t.params.err
}

// Definition returns the tool's definition as the "schema" action serves it,
// or the error that keeps it from being served.
func (t *Tool) Definition() (tool.Definition, error) {
	p, err := t.parameters()
	if err != nil {
		return tool.Definition{}, err
	}
	return tool.Definition{
		Name:        t.name,
		Summary:     t.summary,
		Description: t.description,
		Parameters:  p.clone(),
		Annotations: t.annotations,
		Examples:    t.examples,
	}, nil
}
