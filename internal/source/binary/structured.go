package binary

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/tool"
)

// outputSchema is a tool's output schema (protocol v2), compiled once, when
// the tool first answers with a structured value.
type outputSchema struct {
	once     sync.Once
	resolved *jsonschema.Resolved
	err      error
}

// get compiles s on first use.
func (o *outputSchema) get(s map[string]any) (*jsonschema.Resolved, error) {
	o.once.Do(func() {
		data, err := json.Marshal(s)
		if err != nil {
			o.err = err
			return
		}
		var js jsonschema.Schema
		if o.err = json.Unmarshal(data, &js); o.err != nil {
			return
		}
		o.resolved, o.err = js.Resolve(nil)
	})
	return o.resolved, o.err
}

// checkStructured holds a success of a tool that declares an output schema
// to it: the structured value must be there and match (a mismatch is an
// error outcome naming the field). A structured value without
// text content gets its JSON as the content.
func (e *entry) checkStructured(out tool.Outcome) tool.Outcome {
	if out.Type != tool.KindSuccess {
		return out
	}
	name := e.name
	if s := e.t().OutputSchema; s != nil {
		if out.Structured == nil {
			return tool.Fail(fmt.Sprintf("tool %q declares an output schema but its answer has no structured value", name))
		}
		resolved, err := e.output.get(s)
		if err != nil {
			return tool.Fail(fmt.Sprintf("tool %q declares an output schema that does not compile: %v", name, err))
		}
		if err := resolved.Validate(catalog.ForValidation(out.Structured)); err != nil {
			return tool.Fail(fmt.Sprintf("tool %q returned structured output that does not match its output schema: %s", name, catalog.StructuredProblem(err)))
		}
	}
	if out.Structured != nil && out.Content == "" { // MCP: structured content is also given as JSON text
		data, err := tool.Marshal(out.Structured)
		if err == nil {
			out.Content = string(data)
		}
	}
	return out
}
