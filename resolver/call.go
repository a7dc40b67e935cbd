package resolver

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/toolhost/toolhost/tool"
)

// CallOptions adjusts one [Catalog.Call]. A nil *CallOptions means all
// defaults.
type CallOptions struct {
	// Answers holds answers supplied up front, by question id.
	Answers map[string]any
	// Ask answers a tool's question. If nil, the question's default is used;
	// a question without a default is returned as the needs_input outcome.
	Ask func(ctx context.Context, q tool.Question) (any, error)
	// MaxRounds bounds the questions answered in one call. If zero, 8.
	MaxRounds int
}

// Call runs the named tool with args. The arguments are validated against
// the tool's input schema, with defaults applied, before anything runs:
// invalid arguments give an error outcome naming the fields, and err nil.
// A failure the tool reports is an error outcome too, and so is a binary
// that exits non-zero without writing an outcome (a plain command that
// failed, a crash): its message carries the exit status and stderr tail.
// err is non-nil only when no answer could be had: an unknown tool
// (wrapping [ErrUnknownTool]), a binary that is missing, not executable,
// timed out or flooded stdout (see the error variables of this package), or
// ctx cancelled (the binary is killed).
func (c *Catalog) Call(ctx context.Context, name string, args map[string]any, opts *CallOptions) (tool.Outcome, error) {
	c.maybeRefresh(ctx)
	e, err := c.lookup(name)
	if err != nil {
		return tool.Outcome{}, err
	}
	checked, problems := e.args.check(args)
	if problems != nil {
		return tool.Fail(fmt.Sprintf("invalid arguments for tool %q: %s", name, strings.Join(problems, "; "))), nil
	}
	if e.handler != nil {
		return callHandler(ctx, e, checked)
	}
	return c.callBinary(ctx, e, checked, opts)
}

// callHandler runs a dynamic tool; a panic is a host error, not a crash.
func callHandler(ctx context.Context, e *entry, args map[string]any) (out tool.Outcome, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = tool.Outcome{}, fmt.Errorf("resolver: tool %q: handler panicked: %v", e.tool.Name, r)
		}
	}()
	return e.handler(ctx, args)
}

// Format renders a call's arguments for a human about to approve it: the
// binary's own format_arguments answer when it gives one, else the host's
// rendering, name(key=value, …) with keys sorted and values as JSON.
// Defaults are applied first; invalid arguments are rendered as given.
func (c *Catalog) Format(ctx context.Context, name string, args map[string]any) (string, error) {
	e, err := c.lookup(name)
	if err != nil {
		return "", err
	}
	if checked, problems := e.args.check(args); problems == nil {
		args = checked
	}
	if e.bin != nil {
		if s, ok := c.formatBinary(ctx, e, args); ok {
			return s, nil
		}
	}
	return formatHost(name, args), nil
}

// formatHost renders name(key=value, …) with keys sorted and values as
// compact JSON.
func formatHost(name string, args map[string]any) string {
	var b strings.Builder
	b.WriteString(name)
	b.WriteByte('(')
	for i, k := range slices.Sorted(maps.Keys(args)) {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(k)
		b.WriteByte('=')
		v, err := json.Marshal(args[k])
		if err != nil {
			fmt.Fprint(&b, args[k])
		} else {
			b.Write(v)
		}
	}
	b.WriteByte(')')
	return b.String()
}
