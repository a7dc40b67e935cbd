package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/sdk/sdktest"
	"github.com/toolhost/toolhost/tool"
)

func TestGreet(t *testing.T) {
	got, err := Greet(t.Context(), Input{Name: "Ada", Greeting: "Hi"})
	if err != nil || got != "Hi, Ada!" {
		t.Errorf("Greet = %q, %v; want %q", got, err, "Hi, Ada!")
	}
}

func TestTool(t *testing.T) {
	resp := sdktest.Schema(t, Tool)
	p := resp.Find("greet").Parameters
	if !p["name"].IsRequired() || p["greeting"].IsRequired() || p["greeting"].Default != "Hello" {
		t.Errorf("parameters = name %+v, greeting %+v", p["name"], p["greeting"])
	}
	tests := []struct {
		args map[string]any
		want tool.Outcome
	}{
		{map[string]any{"name": "Ada"}, tool.Success("Hello, Ada!")},
		{map[string]any{"name": "Ada", "greeting": "Hi"}, tool.Success("Hi, Ada!")},
		{map[string]any{}, tool.Outcome{Type: tool.KindError, Message: `invalid arguments for tool "greet": missing required argument "name"`, Trace: []string{}}},
	}
	for _, tt := range tests {
		got := sdktest.Run(t, Tool, tt.args, nil)
		if g, w := jsonOf(t, got), jsonOf(t, tt.want); g != w {
			t.Errorf("run %v: outcome mismatch\nwant %s\ngot  %s", tt.args, w, g)
		}
	}
	if o := sdktest.Format(t, Tool, map[string]any{"name": "Ada"}, nil); o.Content != "name: Ada\ngreeting: Hello" {
		t.Errorf("format = %q", o.Content)
	}
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestBinary builds bin/greet and checks what a host sees on stdout and as
// exit status, for good and malformed requests.
func TestBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "greet")
	if out, err := exec.CommandContext(t.Context(), "go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	root := t.TempDir()
	ctx := func(action string) string {
		return `"context":{"action":"` + action + `","root":"` + root + `","workspace_id":"w","conversation_id":"c"}`
	}
	tests := []struct {
		name  string
		stdin string
		code  int
		want  string
	}{
		{"schema", `{"protocol":"1",` + ctx("schema") + `}`, 0,
			`{"protocol":"2","long_lived":true,"tools":[{"name":"greet","summary":"Greet someone by name.","parameters":{"greeting":{"type":"string","summary":"The greeting word.","default":"Hello"},"name":{"type":"string","summary":"Who to greet."}}}]}`},
		{"run", `{"protocol":"1",` + ctx("run") + `,"tool":{"name":"greet","arguments":{"name":"Ada"},"answers":{},"options":{}}}`, 0,
			`{"type":"success","content":"Hello, Ada!"}`},
		{"format", `{"protocol":"1",` + ctx("format_arguments") + `,"tool":{"name":"greet","arguments":{"name":"Ada"}}}`, 0,
			`{"type":"success","content":"name: Ada\ngreeting: Hello"}`},
		{"empty", ``, 2,
			`{"type":"error","message":"empty request on stdin: expected one JSON request object","trace":[],"transient":false}`},
		{"not JSON", `greet Ada`, 2,
			`{"type":"error","message":"request is not valid JSON (it starts with \"greet Ada\"): invalid character 'g' looking for beginning of value","trace":[],"transient":false}`},
		{"unknown action", `{"protocol":"1",` + ctx("greet") + `}`, 2,
			`{"type":"error","message":"unknown action \"greet\": want \"schema\", \"run\" or \"format_arguments\"","trace":[],"transient":false}`},
		{"wrong type", `{"protocol":"1",` + ctx("run") + `,"tool":{"name":"greet","arguments":{"name":true}}}`, 2,
			`{"type":"error","message":"invalid arguments for tool \"greet\": name: want string, got boolean true","trace":[],"transient":false}`},
		{"unknown tool", `{"protocol":"1",` + ctx("run") + `,"tool":{"name":"wave"}}`, 2,
			`{"type":"error","message":"unknown tool \"wave\": this binary serves \"greet\"","trace":[],"transient":false}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.CommandContext(t.Context(), bin)
			cmd.Stdin = strings.NewReader(tt.stdin)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			var exitErr *exec.ExitError
			if err != nil && !errors.As(err, &exitErr) {
				t.Fatal(err)
			}
			if code := cmd.ProcessState.ExitCode(); code != tt.code {
				t.Errorf("exit status = %d, want %d", code, tt.code)
			}
			if got := stdout.String(); got != tt.want+"\n" {
				t.Errorf("stdout mismatch\nwant %s\ngot  %s", tt.want, got)
			}
			if strings.Contains(stderr.String(), "goroutine ") {
				t.Errorf("stderr holds a Go trace:\n%s", stderr.String())
			}
		})
	}
}
