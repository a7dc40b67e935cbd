package faketool

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/tool"
)

// TouchSchema is the schema answer of the "touch" scenario. It has one
// tool, touch(text = "hi", approved = false, ask = false). approved is
// named like an approval, so that a test can send it as a model would. It
// approves nothing.
const TouchSchema = `{"tools":[{"name":"touch","summary":"Append a line to a file.","parameters":{` +
	`"text":{"type":"string","default":"hi"},` +
	`"approved":{"type":"boolean","default":false,"summary":"A model may send it; it approves nothing."},` +
	`"ask":{"type":"boolean","default":false,"summary":"Ask the question again before writing."}}}]}`

// touch is a tool with a side effect a test can see. run appends one line,
// "ran TEXT", to the file os.Args[2]. So a test counts the runs. It can
// assert that a call that was not approved wrote nothing. With ask = true
// it first asks the question "again" (Boolean). format_arguments renders
// `append "TEXT" to FILE`, without side effects.
func touch() int {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "touch: want the file to append to as the first argument")
		return 2
	}
	file := os.Args[2]
	req := ReadRequest()
	if req == nil {
		return 2
	}
	switch req.Context.Action {
	case tool.ActionSchema:
		fmt.Println(TouchSchema)
		return 0
	case tool.ActionFormatArguments:
		fmt.Printf(`{"type":"success","content":%q}`+"\n", fmt.Sprintf("append %q to %s", req.Tool.Arguments["text"], file))
		return 0
	}
	if req.Tool.Arguments["ask"] == true {
		if _, ok := req.Tool.Answers["again"]; !ok {
			fmt.Println(`{"type":"needs_input","question":{"id":"again","text":"Append again?","answer_type":"Boolean"}}`)
			return 0
		}
	}
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	fmt.Fprintf(f, "ran %v\n", req.Tool.Arguments["text"])
	if err := f.Close(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	fmt.Printf(`{"type":"success","content":%q}`+"\n", fmt.Sprintf("appended %v", req.Tool.Arguments["text"]))
	return 0
}

// Runs returns the lines the "touch" scenario appended to file: one per
// run. None when it never ran (the file does not exist).
func Runs(t testing.TB, file string) []string {
	t.Helper()
	data, err := os.ReadFile(file)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}
