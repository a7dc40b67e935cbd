package sh

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/toolhost/toolhost/tool"
)

const countLines = "count_lines_v2.sh"

// runIn pipes stdin into count_lines_v2.sh with dir as the working
// directory and returns its stdout and exit status.
func runIn(t *testing.T, dir, stdin string) ([]byte, int) {
	t.Helper()
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh")
	}
	script, err := filepath.Abs(countLines)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(t.Context(), "/bin/sh", script)
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(stdin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var exitErr *exec.ExitError
	code := 0
	switch {
	case errors.As(err, &exitErr):
		code = exitErr.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	if stderr.Len() > 0 {
		t.Errorf("stderr: %s", stderr.Bytes())
	}
	return out, code
}

// requestV request builds a request of protocol version, as a host does.
func requestV(t *testing.T, version string, action tool.Action, call *tool.Call) string {
	t.Helper()
	req := tool.Request{Protocol: version, Context: tool.Context{Action: action, Root: "/", WorkspaceID: "w", ConversationID: "c"}, Tool: call}
	data, err := encode(req)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestCountLinesDoc checks that docs/protocol.md prints count_lines_v2.sh
// as it is.
func TestCountLinesDoc(t *testing.T) {
	doc, err := os.ReadFile("../../docs/protocol.md")
	if err != nil {
		t.Fatal(err)
	}
	const marker = "<!-- count_lines_v2.sh: tested by examples/sh/count_lines_test.go (TestCountLinesDoc) -->\n```sh\n"
	_, rest, ok := strings.Cut(string(doc), marker)
	if !ok {
		t.Fatal("docs/protocol.md has no count_lines_v2.sh listing after the marker")
	}
	listing, _, ok := strings.Cut(rest, "\n```\n")
	if !ok {
		t.Fatal("count_lines_v2.sh listing is not closed")
	}
	script, err := os.ReadFile(countLines)
	if err != nil {
		t.Fatal(err)
	}
	if listing+"\n" != string(script) {
		t.Errorf("docs/protocol.md's listing differs from %s: copy the file into the doc", countLines)
	}
}

// TestCountLines reads what count_lines_v2.sh writes with the host's
// decoders: a v2 schema answer, event lines then a structured success
// that matches the output schema, and v1 answers for v1 requests.
func TestCountLines(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{"a.txt": "1\n2\n", "b.txt": "3\n", "c.go": "x\n", `odd"name.txt`: "y\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	out, code := runIn(t, dir, requestV(t, "1", tool.ActionSchema, nil))
	resp, err := tool.DecodeSchemaResponse(out)
	if err != nil || code != 0 || resp.Protocol != tool.Version2 || resp.Tools[0].OutputSchema == nil {
		t.Fatalf("schema: %v, exit %d: %s", err, code, out)
	}
	data, _ := json.Marshal(resp.Tools[0].OutputSchema)
	var schema jsonschema.Schema
	if err := json.Unmarshal(data, &schema); err != nil {
		t.Fatal(err)
	}
	resolved, err := schema.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}

	call := &tool.Call{Name: "count_lines", Arguments: map[string]any{"pattern": "*.txt"}}
	out, code = runIn(t, dir, requestV(t, "2", tool.ActionRun, call))
	events, o, err := tool.DecodeStream(out)
	if err != nil || code != 0 {
		t.Fatalf("run: %v, exit %d: %s", err, code, out)
	}
	wantEvents := `[{"type":"progress","progress":1,"total":3,"message":"a.txt"},{"type":"progress","progress":2,"total":3,"message":"b.txt"},{"type":"log","level":"warning","message":"skipped a file whose name needs escaping"}]`
	if got, _ := encode(events); string(got) != wantEvents {
		t.Errorf("events mismatch\nwant %s\ngot  %s", wantEvents, got)
	}
	if got, _ := encode(o.Structured); o.Content != "3 lines in 2 files" || string(got) != `{"files":[{"lines":2,"path":"a.txt"},{"lines":1,"path":"b.txt"}],"total":3}` {
		t.Errorf("outcome = %q, structured %s", o.Content, got)
	}
	var v any
	data, _ = json.Marshal(o.Structured)
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	if err := resolved.Validate(v); err != nil {
		t.Errorf("structured value does not match the output schema: %v", err)
	}

	tests := []struct {
		name, stdin string
		want        tool.Outcome
		code        int
	}{
		{"v1 run", requestV(t, "1", tool.ActionRun, call), tool.Success("3 lines in 2 files"), 0},
		{"no match", requestV(t, "2", tool.ActionRun, &tool.Call{Name: "count_lines", Arguments: map[string]any{"pattern": "*.md"}}), tool.Outcome{Type: tool.KindSuccess, Content: "0 lines in 0 files", Structured: map[string]any{"files": []any{}, "total": json.Number("0")}}, 0},
		{"format", requestV(t, "2", tool.ActionFormatArguments, call), tool.Success("count the lines of *.txt"), 0},
		{"version", requestV(t, "3", tool.ActionRun, call), tool.Fail("count_lines: unsupported protocol version: this binary speaks protocol 1 and 2"), 2},
		{"unknown tool", requestV(t, "2", tool.ActionRun, &tool.Call{Name: "wc"}), tool.Fail("count_lines: unknown tool 'wc': this binary offers count_lines"), 2},
		{"path in pattern", requestV(t, "2", tool.ActionRun, &tool.Call{Name: "count_lines", Arguments: map[string]any{"pattern": "../*"}}), tool.Fail("count_lines: argument pattern must be a file name pattern without /, spaces, quotes or backslashes"), 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, code := runIn(t, dir, tt.stdin)
			events, got, err := tool.DecodeStream(out)
			if err != nil || code != tt.code || len(events) != 0 {
				t.Fatalf("%v, exit %d, events %v: %s", err, code, events, out)
			}
			if tt.want.Type == tool.KindError {
				tt.want.Trace = []string{}
			}
			g, _ := encode(got)
			w, _ := encode(tt.want)
			if string(g) != string(w) {
				t.Errorf("outcome mismatch\nwant %s\ngot  %s", w, g)
			}
		})
	}
}
