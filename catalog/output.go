package catalog

import (
	"encoding/json"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/toolhost/toolhost/tool"
)

// This file checks a tool's answer against its output schema, as
// validate.go checks a call's arguments against its input schema. The
// catalog does it for every tool, whatever its source: a binary's
// structured output and an MCP server's structuredContent alike.

// outputChecker is a tool's output schema, compiled on its first
// structured answer.
type outputChecker struct {
	resolved *jsonschema.Resolved
	explain  *explainer // says where a value that does not match is at fault
	err      error
}

// compileOutput compiles an output schema.
func compileOutput(s map[string]any) outputChecker {
	data, err := json.Marshal(s)
	if err != nil {
		return outputChecker{err: err}
	}
	var js jsonschema.Schema
	if err := json.Unmarshal(data, &js); err != nil {
		return outputChecker{err: err}
	}
	x := newExplainer(&js, data, "the value")
	if at := x.refCycle(); at != "" {
		return outputChecker{err: fmt.Errorf("its references at %s lead back there without a step into the value", at)}
	}
	r, err := js.Resolve(nil)
	return outputChecker{resolved: r, explain: x, err: err}
}

// checkOutput holds a success of a tool that declares an output schema to
// it. The structured value must be there and match. A mismatch is an
// error outcome naming the field. A structured value without text content
// gets its JSON as the content, as MCP gives it.
func (e *entry) checkOutput(out tool.Outcome) tool.Outcome {
	if out.Type != tool.KindSuccess {
		return out
	}
	if s := e.t().OutputSchema; s != nil {
		if out.Structured == nil {
			return tool.Fail(fmt.Sprintf("tool %q declares an output schema but its answer has no structured value", e.name))
		}
		e.outOnce.Do(func() { e.out = compileOutput(s) })
		if e.out.err != nil {
			return tool.Fail(fmt.Sprintf("tool %q declares an output schema that does not compile: %v", e.name, e.out.err))
		}
		if seen := forValidation(out.Structured); e.out.resolved.Validate(seen) != nil {
			f := e.out.explain.explain(e.out.explain.root, out.Structured, seen, "", 0)
			return tool.Fail(fmt.Sprintf("tool %q returned structured output that does not match its output schema: %s", e.name, f.text("")))
		}
	}
	if out.Structured != nil && out.Content == "" {
		if data, err := tool.Marshal(out.Structured); err == nil {
			out.Content = string(data)
		}
	}
	return out
}
