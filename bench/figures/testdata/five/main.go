// Command five is a 5-tool sdk binary, the fixture of the 200-entry
// figures (copied 40 times by the benchmark).
package main

import (
	"context"
	"strings"

	"github.com/toolhost/toolhost/sdk"
)

// Input is every tool's parameters: the shape of a typical file tool.
type Input struct {
	Path   string `json:"path" jsonschema:"description=File to read\\, relative to the workspace root."`
	Offset int    `json:"offset,omitempty" jsonschema:"description=First line to return (0-based).,minimum=0,default=0"`
	Limit  int    `json:"limit,omitempty" jsonschema:"description=Most lines to return.,minimum=1,default=2000"`
	Mode   string `json:"mode,omitempty" jsonschema:"description=How to read.,enum=text,enum=lines,default=text"`
}

func echo(_ context.Context, in Input) (string, error) { return strings.ToUpper(in.Path), nil }

func main() {
	var tools []*sdk.Tool
	for _, name := range []string{"alpha", "bravo", "charlie", "delta", "echo"} {
		tools = append(tools, sdk.New(name, "Tool "+name+": reads part of a file.", echo, &sdk.Options[Input]{
			Description: "Returns the file's lines, starting at offset (0-based), at most limit of them.",
			Annotations: map[string]any{"readOnlyHint": true},
		}))
	}
	sdk.Main(tools...)
}
