package sdk_test

import (
	"context"
	"encoding/json"
	"errors"
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
	// {"protocol":"2","long_lived":true,"tools":[{"name":"greet","summary":"Greet someone.","parameters":{"greeting":{"type":"string","default":"Hello"},"name":{"type":"string"}}}]}
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

// ExampleAsk asks a question of any answer type. The host shows it and
// runs the tool again with the answer under the question's ID.
func ExampleAsk() {
	del := sdk.New("delete", "Delete a file.", func(ctx context.Context, in struct{}) (string, error) {
		v, err := sdk.Ask(ctx, tool.Question{ID: "delete", Text: "Delete a.txt?", AnswerType: tool.AnswerType{Kind: tool.AnswerBoolean}})
		if err != nil {
			return "", err
		}
		if v != true {
			return "", errors.New("not deleted")
		}
		return "deleted a.txt", nil
	}, nil)
	again := `{"context":{"action":"run"},"tool":{"name":"delete","answers":{"delete":false}}}`
	sdk.Run(context.Background(), strings.NewReader(again), os.Stdout, io.Discard, del)
	// Output:
	// {"type":"error","message":"not deleted","trace":[],"transient":false}
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

// ExampleProgress reports progress and logs while a tool runs: under
// protocol v2 each call writes one event line before the outcome, which
// hosts forward as it comes.
func ExampleProgress() {
	files := []string{"a.go", "b.go"}
	scan := sdk.New("scan", "Scan files.", func(ctx context.Context, in struct{}) (string, error) {
		for i, f := range files {
			sdk.Progress(ctx, float64(i+1), float64(len(files)), f)
		}
		sdk.Log(ctx, sdk.LevelInfo, "scanned")
		return "ok", nil
	}, nil)
	stdin := `{"protocol":"2","context":{"action":"run"},"tool":{"name":"scan"}}`
	sdk.Run(context.Background(), strings.NewReader(stdin), os.Stdout, io.Discard, scan)
	// Output:
	// {"type":"progress","progress":1,"total":2,"message":"a.go"}
	// {"type":"progress","progress":2,"total":2,"message":"b.go"}
	// {"type":"log","level":"info","message":"scanned"}
	// {"type":"success","content":"ok"}
}

// ExampleNew_structured returns structured output: the output type is
// reflected into the output schema, and the value is the outcome's
// "structured" value (its String method, when it has one, the text).
func ExampleNew_structured() {
	type Input struct {
		Path string `json:"path"`
	}
	type Output struct {
		Lines int `json:"lines" jsonschema:"description=Number of lines.,minimum=0"`
	}
	count := sdk.New("count_lines", "Count lines.", func(ctx context.Context, in Input) (Output, error) {
		return Output{Lines: 42}, nil
	}, nil)

	def, _ := count.Definition()
	out, _ := json.Marshal(def.OutputSchema)
	fmt.Println(string(out))
	stdin := `{"protocol":"2","context":{"action":"run"},"tool":{"name":"count_lines","arguments":{"path":"a.go"}}}`
	sdk.Run(context.Background(), strings.NewReader(stdin), os.Stdout, io.Discard, count)
	// A host of protocol v1 gets the JSON as text.
	sdk.Run(context.Background(), strings.NewReader(strings.Replace(stdin, `"2"`, `"1"`, 1)), os.Stdout, io.Discard, count)
	// Output:
	// {"additionalProperties":false,"properties":{"lines":{"description":"Number of lines.","minimum":0,"type":"integer"}},"required":["lines"],"type":"object"}
	// {"type":"success","content":"","structured":{"lines":42}}
	// {"type":"success","content":"{\"lines\":42}"}
}

// ExampleImage returns an image beside the text, as a content block.
func ExampleImage() {
	png := []byte{0x89, 'P', 'N', 'G'} // the image's bytes
	chart := sdk.New("chart", "Draw a chart.", func(ctx context.Context, in struct{}) (sdk.Result, error) {
		return sdk.Result{Text: "The chart:", Blocks: []tool.Block{sdk.Image("image/png", png)}}, nil
	}, nil)
	stdin := `{"protocol":"2","context":{"action":"run"},"tool":{"name":"chart"}}`
	sdk.Run(context.Background(), strings.NewReader(stdin), os.Stdout, io.Discard, chart)
	// Output:
	// {"type":"success","content":"The chart:","blocks":[{"type":"image","data":"iVBORw==","mime_type":"image/png"}]}
}

// ExampleAskForm asks several questions at once, one per field, and gets
// the struct back filled with the answers on the next run.
func ExampleAskForm() {
	type Login struct {
		User  string `json:"user" jsonschema:"description=User name?"`
		Token string `json:"token" jsonschema:"description=API token?,secret"`
		Days  int    `json:"days" jsonschema:"description=Valid for how many days?,minimum=1,maximum=90,default=30"`
	}
	signIn := sdk.New("sign_in", "Sign in.", func(ctx context.Context, in struct{}) (string, error) {
		l, err := sdk.AskForm[Login](ctx, "Sign in to the registry")
		if err != nil {
			return "", err // needs_input until every question is answered
		}
		return fmt.Sprintf("%s signed in for %d days", l.User, l.Days), nil
	}, nil)

	first := `{"protocol":"2","context":{"action":"run"},"tool":{"name":"sign_in"}}`
	again := `{"protocol":"2","context":{"action":"run"},"tool":{"name":"sign_in","answers":{"user":"ada","token":"t0k3n","days":7}}}`
	sdk.Run(context.Background(), strings.NewReader(first), os.Stdout, io.Discard, signIn)
	sdk.Run(context.Background(), strings.NewReader(again), os.Stdout, io.Discard, signIn)
	// Output:
	// {"type":"needs_input","questions":[{"id":"user","text":"User name?","pre_amble":"Sign in to the registry","answer_type":"Text","default":null},{"id":"token","text":"API token?","pre_amble":null,"answer_type":"Secret","default":null},{"id":"days","text":"Valid for how many days?","pre_amble":null,"answer_type":{"Number":{"minimum":1,"maximum":90,"integer":true}},"default":30}]}
	// {"type":"success","content":"ada signed in for 7 days"}
}
