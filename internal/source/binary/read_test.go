package binary

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/internal/invoke"
	"github.com/toolhost/toolhost/tool"
)

// TestReadOutcome checks the reading of a tool's answer on results made by hand: the one
// reading of stdout and exit status.
func TestReadOutcome(t *testing.T) {
	tests := []struct {
		name      string
		stdout    string
		stderr    string
		exitCode  int
		status    string
		described bool // the binary answered schema
		want      tool.Outcome
		err       string // "" for none; else the error message, wrapping ErrProtocol
	}{
		{"outcome", "\n  {\"type\":\"success\",\"content\":\"done\"}  \n", "", 0, "", true, tool.Success("done"), ""},
		{"error outcome believed on exit 1", `{"type":"error","message":"no such city","trace":["lookup"],"transient":true}`, "some log line\n", 1, "exit status 1", true,
			tool.Outcome{Type: tool.KindError, Message: "no such city", Trace: []string{"lookup"}, Transient: true}, ""},
		{"outcome believed on exit 2", ` {"type":"success","content":"x"} `, "", 2, "exit status 2", false, tool.Success("x"), ""},
		{"plain text", "hello world\n", "", 0, "", false, tool.Success("hello world"), ""},
		{"one trailing newline trimmed", "a\nb\n\n", "", 0, "", false, tool.Success("a\nb\n"), ""},
		{"crlf trimmed", "a\r\n", "", 0, "", false, tool.Success("a"), ""},
		{"empty stdout", "", "", 0, "", false, tool.Success(""), ""},
		{"json that is not an outcome", `{"rows":3}`, "", 0, "", false, tool.Success(`{"rows":3}`), ""},
		{"exit 3 with stderr", "", "starting up\npanic: boom\n", 3, "exit status 3", false,
			tool.Fail("tool \"t\" exited with status 3: starting up\npanic: boom"), ""},
		{"killed by a signal", "", "about to crash\n", -1, "signal: killed", true,
			tool.Fail(`tool "t" died: signal: killed: about to crash`), ""},
		{"plain text on failure", "bad input\n", "", 2, "exit status 2", false,
			tool.Fail(`tool "t" exited with status 2; stdout: bad input`), ""},
		{"stderr wins over stdout", "out\n", "err\n", 2, "exit status 2", false,
			tool.Fail(`tool "t" exited with status 2: err`), ""},
		{"nothing at all", "", "", 4, "exit status 4", false,
			tool.Fail(`tool "t" exited with status 4 and printed nothing`), ""},
		// A binary that described itself speaks the protocol: stdout that
		// is not an outcome is a protocol error, not success content.
		{"described: logs before the JSON", "loading\n{\"type\":\"success\",\"content\":\"x\"}\n", "", 0, "", true, tool.Outcome{},
			`protocol error: the binary described itself (it answered schema), so it must answer with one outcome object on stdout, and it printed "loading\n{\"type\":\"success\",\"content\":\"x\"}"`},
		{"described: two documents", `{"type":"success","content":"a"}{"type":"success","content":"b"}`, "", 0, "", true, tool.Outcome{},
			`protocol error: the binary described itself (it answered schema), so it must answer with one outcome object on stdout, and it printed "{\"type\":\"success\",\"content\":\"a\"}{\"type\":\"success\",\"content\":\"b\"}"`},
		{"described: partial JSON", `{"type":"succ`, "", 0, "", true, tool.Outcome{},
			`protocol error: the binary described itself (it answered schema), so it must answer with one outcome object on stdout, and it printed "{\"type\":\"succ"`},
		{"described: a key twice", `{"type":"error","message":"refused","type":"success","content":"done"}`, "", 0, "", true, tool.Outcome{},
			`protocol error: the binary answered with an outcome holding a key twice, which readers may take either way: duplicate key "type"`},
		{"plain command: a key twice is text", `{"type":"success","content":"a","content":"b"}`, "", 0, "", false,
			tool.Success(`{"type":"success","content":"a","content":"b"}`), ""},
		{"described: nothing", "  \n", "", 0, "", true, tool.Outcome{},
			`protocol error: the binary described itself (it answered schema), so it must answer with one outcome object on stdout, and it printed nothing`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := &invoke.Result{Stdout: []byte(tt.stdout), StderrTail: []byte(tt.stderr), ExitCode: tt.exitCode, Status: tt.status}
			got, err := readOutcome("t", res, tt.described)
			if tt.err != "" {
				if !errors.Is(err, ErrProtocol) || err.Error() != tt.err {
					t.Fatalf("err = %v\nwant %s (wrapping ErrProtocol)", err, tt.err)
				}
				if fix := catalog.FixOf(err); strings.Contains(tt.name, "key twice") != (fix == "write each key of an object once") {
					t.Errorf("fix %q: want the key's fix as a field, for a key twice only", fix)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := diff(tt.want, got); d != "" {
				t.Errorf("outcome mismatch (-want +got):\n%s", d)
			}
		})
	}
}

func TestReadSchema(t *testing.T) {
	tests := []struct {
		name     string
		stdout   string
		stderr   string
		exitCode int
		err      error
		message  string
		fix      string
	}{
		{"schema", `{"tools":[{"name":"greet","summary":"Say hello.","parameters":{"name":{"type":"string"}}}]}`, "", 0, nil, "", ""},
		{"exit 3", "", "starting up\npanic: boom\n", 3, ErrExit, `run "t": schema: tool failed: exit status 3: stderr: starting up | panic: boom`, ""},
		{"logs on stdout", "loading config from /etc/x.conf\n{\"tools\":[]}\n", "", 0, ErrNotJSON,
			`run "t": schema: stdout is not JSON: it starts with "loading config from /etc/x.conf\n{\"tools\":[]}"`,
			"the binary must print only its JSON answer on stdout and log to stderr"},
		{"no tools", `{"name":"greet","summary":"Say hello."}`, "", 0, tool.ErrNotSchema,
			`run "t": schema: not a schema response: no "tools" field`,
			"give the entry a parameters table, or upgrade the binary to describe itself"},
		{"empty", "", "", 0, ErrNotJSON, `run "t": schema: stdout is not JSON: it is empty`,
			`the binary must answer a schema request with {"tools":[…]}, or give the entry a parameters table`},
		{"a key twice", `{"tools":[{"name":"echo","name":"nested"}]}`, "", 0, tool.ErrNotSchema,
			`run "t": schema: not a schema response: duplicate key "name" in /tools/0`,
			"the binary must write each key of an object once"},
		{"error outcome quoted", `{"type":"error","message":"unsupported protocol version \"1\""}`, "", 0, tool.ErrNotSchema,
			`run "t": schema: not a schema response: no "tools" field; the binary answered: unsupported protocol version "1"`,
			"give the entry a parameters table, or upgrade the binary to describe itself"},
		{"too many tools", manyTools(MaxTools + 1), "", 0, catalog.ErrOutputTooLarge,
			`run "t": schema: stdout too large: it declares 10001 tools, more than 10000`,
			"a binary may declare at most 10000 tools: split them over several binaries"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := &invoke.Result{Stdout: []byte(tt.stdout), StderrTail: []byte(tt.stderr), ExitCode: tt.exitCode, Status: "exit status 3"}
			resp, err := readSchema("t", res)
			if !errors.Is(err, tt.err) {
				t.Fatalf("err = %v, want %v", err, tt.err)
			}
			if err != nil {
				var ierr *invoke.Error
				if !errors.As(err, &ierr) || err.Error() != tt.message || ierr.Fix != tt.fix {
					t.Errorf("err = %q (fix %q)\nwant %q (fix %q)", err, ierr.Fix, tt.message, tt.fix)
				}
				return
			}
			if got := resp.Names(); !slices.Equal(got, []string{"greet"}) {
				t.Errorf("tools %q, want [greet]", got)
			}
		})
	}
}

// manyTools is a schema answer declaring n tools, t0 to t(n-1).
func manyTools(n int) string {
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf(`{"name":"t%d"}`, i)
	}
	return `{"tools":[` + strings.Join(names, ",") + `]}`
}
