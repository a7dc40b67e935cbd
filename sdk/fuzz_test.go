package sdk_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/toolhost/toolhost/sdk"
	"github.com/toolhost/toolhost/tool"
)

// FuzzRun feeds arbitrary stdin to Run: it never panics, always writes one
// JSON line that is an outcome or a schema response, and exits 0, 1 or 2.
func FuzzRun(f *testing.F) {
	for _, s := range []string{
		"", " ", "null", "[]", "{}", "hello", `{"context":{"action":"schema"}}`,
		req("schema", "", "", ""),
		req("run", "greet", `{"name":"Ada"}`, ""),
		req("run", "greet", `{"name":3}`, ""),
		req("run", "count", `{"n":1e400}`, ""),
		req("run", "ask", `{}`, `,"answers":{"sure":true,"name":"x","color":"blue"}`),
		req("format_arguments", "greet", `{"name":"Ada\nLovelace"}`, ""),
		req("run", "panics", `{}`, ""),
		`{"protocol":"2","context":{"action":"run"}}`,
		`{"context":{"action":"run"},"tool":{"name":"greet","arguments":{"name":"a"}}} trailing`,
	} {
		f.Add([]byte(s))
	}
	var tools []*sdk.Tool
	for _, tl := range testTools() {
		if tl.Name() != "wait" && tl.Name() != "noisy" { // blocks until cancelled; prints to the real stdout
			tools = append(tools, tl)
		}
	}
	f.Fuzz(func(t *testing.T, stdin []byte) {
		var stdout, stderr bytes.Buffer
		code := sdk.Run(t.Context(), bytes.NewReader(stdin), &stdout, &stderr, tools...)
		if code < 0 || code > 2 {
			t.Fatalf("exit status %d", code)
		}
		out := stdout.Bytes()
		if !bytes.HasSuffix(out, []byte("\n")) || bytes.Count(out, []byte("\n")) != 1 || !json.Valid(out) {
			t.Fatalf("stdout is not one JSON line: %q", out)
		}
		if _, err := tool.DecodeOutcome(out); err == nil {
			return
		}
		if _, err := tool.DecodeSchemaResponse(out); err != nil || code != 0 {
			t.Fatalf("stdout is neither an outcome nor a schema (exit %d): %q", code, out)
		}
	})
}
