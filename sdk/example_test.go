package sdk_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/toolhost/toolhost/sdk"
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
	// {"tools":[{"name":"greet","summary":"Greet someone.","parameters":{"greeting":{"type":"string","default":"Hello"},"name":{"type":"string"}}}]}
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
