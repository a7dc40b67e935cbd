package sdk_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/toolhost/toolhost/sdk"
	"github.com/toolhost/toolhost/tool"
)

// ExampleNew reflects an input struct into the parameters the "schema"
// action serves.
func ExampleNew() {
	type Input struct {
		Path  string `json:"path" jsonschema:"description=File to read."`
		Limit int    `json:"limit,omitempty" jsonschema:"default=200,minimum=1"`
	}
	read := sdk.New("read_file", "Read a file.", func(ctx context.Context, in Input) (string, error) {
		return "", nil
	}, &sdk.Options[Input]{Annotations: map[string]any{"readOnlyHint": true}})

	def, err := read.Definition()
	if err != nil {
		panic(err)
	}
	out, _ := json.MarshalIndent(def, "", "  ")
	fmt.Println(string(out))
	// Output:
	// {
	//   "name": "read_file",
	//   "summary": "Read a file.",
	//   "parameters": {
	//     "limit": {
	//       "type": "integer",
	//       "default": 200,
	//       "minimum": 1
	//     },
	//     "path": {
	//       "type": "string",
	//       "summary": "File to read."
	//     }
	//   },
	//   "annotations": {
	//     "readOnlyHint": true
	//   }
	// }
}

// ExampleRun serves requests the way a tool binary does: one request on
// stdin, one JSON line on stdout, and the exit status.
func ExampleRun() {
	type Input struct {
		Name     string `json:"name"`
		Greeting string `json:"greeting,omitempty" jsonschema:"default=Hello"`
	}
	greet := sdk.New("greet", "Greet someone.", func(ctx context.Context, in Input) (string, error) {
		return in.Greeting + ", " + in.Name + "!", nil
	}, nil)

	for _, stdin := range []string{
		`{"protocol":"1","context":{"action":"schema"}}`,
		`{"protocol":"1","context":{"action":"run"},"tool":{"name":"greet","arguments":{"name":"Ada"}}}`,
		`{"protocol":"1","context":{"action":"format_arguments"},"tool":{"name":"greet","arguments":{"name":"Ada"}}}`,
		`{"protocol":"1","context":{"action":"run"},"tool":{"name":"greet","arguments":{"name":42}}}`,
	} {
		code := sdk.Run(context.Background(), strings.NewReader(stdin), os.Stdout, io.Discard, greet)
		fmt.Println("exit status", code)
	}
	// Output:
	// {"protocol":"2","tools":[{"name":"greet","summary":"Greet someone.","parameters":{"greeting":{"type":"string","default":"Hello"},"name":{"type":"string"}}}]}
	// exit status 0
	// {"type":"success","content":"Hello, Ada!"}
	// exit status 0
	// {"type":"success","content":"name: Ada\ngreeting: Hello"}
	// exit status 0
	// {"type":"error","message":"invalid arguments for tool \"greet\": name: want string, got number 42","trace":[],"transient":false}
	// exit status 2
}

// ExampleConfirm asks before acting: the first run ends with needs_input,
// the host asks the user and runs the tool again with the answer.
func ExampleConfirm() {
	type Input struct {
		Path string `json:"path"`
	}
	del := sdk.New("delete", "Delete a file.", func(ctx context.Context, in Input) (string, error) {
		ok, err := sdk.Confirm(ctx, "delete", "Delete "+in.Path+"?", false)
		if err != nil {
			return "", err // no answer yet: needs_input
		}
		if !ok {
			return "kept " + in.Path, nil
		}
		return "deleted " + in.Path, nil
	}, nil)

	first := `{"context":{"action":"run"},"tool":{"name":"delete","arguments":{"path":"a.txt"}}}`
	again := `{"context":{"action":"run"},"tool":{"name":"delete","arguments":{"path":"a.txt"},"answers":{"delete":true}}}`
	sdk.Run(context.Background(), strings.NewReader(first), os.Stdout, io.Discard, del)
	sdk.Run(context.Background(), strings.NewReader(again), os.Stdout, io.Discard, del)
	// Output:
	// {"type":"needs_input","question":{"id":"delete","text":"Delete a.txt?","pre_amble":null,"answer_type":"Boolean","default":false}}
	// {"type":"success","content":"deleted a.txt"}
}

// ExampleTransient marks an error as worth retrying.
func ExampleTransient() {
	busy := sdk.New("busy", "Always busy.", func(ctx context.Context, in struct{}) (string, error) {
		return "", sdk.Transient(fmt.Errorf("database locked"))
	}, nil)
	sdk.Run(context.Background(), strings.NewReader(`{"context":{"action":"run"},"tool":{"name":"busy"}}`), os.Stdout, io.Discard, busy)
	// Output:
	// {"type":"error","message":"database locked","trace":[],"transient":true}
}

// ExampleNew_tags shows struct tags and the JSON Schema a host derives from
// the reflected parameters for tools/list (tool.InputSchema).
func ExampleNew_tags() {
	type Range struct {
		From int `json:"from"`
		To   int `json:"to,omitempty" jsonschema:"description=Last line; 0 means the end."`
	}
	type Input struct {
		Pattern string   `json:"pattern" jsonschema:"description=A Go regular expression.,minLength=1"`
		Mode    string   `json:"mode,omitempty" jsonschema:"enum=lines,enum=count,default=lines"`
		Paths   []string `json:"paths,omitempty" jsonschema:"maxItems=10"`
		Lines   *Range   `json:"lines,omitempty"`
	}
	grep := sdk.New("grep", "Search files.", func(ctx context.Context, in Input) (string, error) {
		return "", nil
	}, nil)
	def, _ := grep.Definition()
	out, _ := json.MarshalIndent(tool.InputSchema(def.Parameters), "", "  ")
	fmt.Println(string(out))
	// Output:
	// {
	//   "additionalProperties": false,
	//   "properties": {
	//     "lines": {
	//       "additionalProperties": false,
	//       "properties": {
	//         "from": {
	//           "type": "integer"
	//         },
	//         "to": {
	//           "description": "Last line; 0 means the end.",
	//           "type": "integer"
	//         }
	//       },
	//       "required": [
	//         "from"
	//       ],
	//       "type": "object"
	//     },
	//     "mode": {
	//       "default": "lines",
	//       "enum": [
	//         "lines",
	//         "count"
	//       ],
	//       "type": "string"
	//     },
	//     "paths": {
	//       "items": {
	//         "type": "string"
	//       },
	//       "maxItems": 10,
	//       "type": "array"
	//     },
	//     "pattern": {
	//       "description": "A Go regular expression.",
	//       "minLength": 1,
	//       "type": "string"
	//     }
	//   },
	//   "required": [
	//     "pattern"
	//   ],
	//   "type": "object"
	// }
}
