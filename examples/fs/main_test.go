package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/sdk"
	"github.com/toolhost/toolhost/sdk/sdktest"
	"github.com/toolhost/toolhost/tool"
)

var update = flag.Bool("update", false, "rewrite testdata/schema.json")

func find(name string) *sdk.Tool {
	for _, t := range Tools {
		if t.Name() == name {
			return t
		}
	}
	panic("no tool " + name)
}

// workspace makes a root with a.txt, sub/b.go, and symbolic links link and
// linkdir that lead to a file and a directory outside it.
func workspace(t *testing.T) string {
	t.Helper()
	base := t.TempDir()
	root, outside := filepath.Join(base, "ws"), filepath.Join(base, "outside")
	for _, d := range []string{filepath.Join(root, "sub"), filepath.Join(root, ".git"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	files := map[string]string{
		filepath.Join(root, "a.txt"):        "hello\nworld\n",
		filepath.Join(root, "sub", "b.go"):  "package b\n\nfunc Hello() {}\n",
		filepath.Join(root, ".git", "HEAD"): "hello\n",
		filepath.Join(outside, "s.txt"):     "secret hello\n",
	}
	for p, s := range files {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(outside, "s.txt"), filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "linkdir")); err != nil {
		t.Fatal(err)
	}
	return root
}

func TestSchema(t *testing.T) {
	resp := sdktest.Schema(t, Tools...)
	got, err := json.MarshalIndent(resp, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	if *update {
		if err := os.WriteFile("testdata/schema.json", got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile("testdata/schema.json")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("schema mismatch (-want +got)\n-%s\n+%s", want, got)
	}
	for _, name := range []string{"read_file", "list_files", "grep_files"} {
		if resp.Find(name).Annotations["readOnlyHint"] != true {
			t.Errorf("%s lacks readOnlyHint", name)
		}
	}
}

func TestTools(t *testing.T) {
	root := workspace(t)
	outsideRoot := "outside the workspace root"
	tests := []struct {
		name string
		tool string
		args map[string]any
		want tool.Outcome
	}{
		{"read", "read_file", map[string]any{"path": "a.txt"}, tool.Success("hello\nworld\n")},
		{"read absolute inside", "read_file", map[string]any{"path": filepath.Join(root, "a.txt")}, tool.Success("hello\nworld\n")},
		{"read window", "read_file", map[string]any{"path": "a.txt", "offset": 1, "limit": 1}, tool.Success("world\n")},
		{"read past end", "read_file", map[string]any{"path": "a.txt", "offset": 9}, tool.Success("")},
		{"read missing", "read_file", map[string]any{"path": "nope.txt"}, tool.Fail("reading nope.txt: no such file or directory")},
		{"read dotdot", "read_file", map[string]any{"path": "../outside/s.txt"}, tool.Fail("path ../outside/s.txt is " + outsideRoot + " " + root)},
		{"read dotdot inside path", "read_file", map[string]any{"path": "sub/../../outside/s.txt"}, tool.Fail("path sub/../../outside/s.txt is " + outsideRoot + " " + root)},
		{"read absolute outside", "read_file", map[string]any{"path": "/etc/passwd"}, tool.Fail("path /etc/passwd is " + outsideRoot + " " + root)},
		{"read symlink out", "read_file", map[string]any{"path": "link"}, tool.Fail("path link is " + outsideRoot + " " + root + ": a symbolic link on it leads out")},
		{"read through symlinked dir", "read_file", map[string]any{"path": "linkdir/s.txt"}, tool.Fail("path linkdir/s.txt is " + outsideRoot + " " + root + ": a symbolic link on it leads out")},
		{"read empty path", "read_file", map[string]any{"path": ""}, tool.Fail("path is empty")},
		{"read bad limit", "read_file", map[string]any{"path": "a.txt", "limit": 0}, tool.Fail(`invalid arguments for tool "read_file": limit: want at least 1, got 0`)},

		{"list", "list_files", nil, tool.Success("a.txt\nlink\nlinkdir\nsub/\nsub/b.go\n")},
		{"list glob", "list_files", map[string]any{"glob": "*.go"}, tool.Success("sub/b.go\n")},
		{"list sub", "list_files", map[string]any{"dir": "sub"}, tool.Success("sub/b.go\n")},
		{"list limit", "list_files", map[string]any{"limit": 2}, tool.Success("a.txt\nlink\n… (limit of 2 entries reached)\n")},
		{"list dotdot", "list_files", map[string]any{"dir": ".."}, tool.Fail("path .. is " + outsideRoot + " " + root)},
		{"list symlinked dir", "list_files", map[string]any{"dir": "linkdir"}, tool.Fail("path linkdir is " + outsideRoot + " " + root + ": a symbolic link on it leads out")},
		{"list a file", "list_files", map[string]any{"dir": "a.txt"}, tool.Fail("a.txt is not a directory")},
		{"list bad glob", "list_files", map[string]any{"glob": "["}, tool.Fail(`glob "[": syntax error in pattern`)},

		{"grep", "grep_files", map[string]any{"pattern": "hel+o"}, tool.Success("a.txt:1: hello\n")},
		{"grep regexp", "grep_files", map[string]any{"pattern": `^func \w+`}, tool.Success("sub/b.go:3: func Hello() {}\n")},
		{"grep glob", "grep_files", map[string]any{"pattern": "o", "glob": "*.txt"}, tool.Success("a.txt:1: hello\na.txt:2: world\n")},
		{"grep none", "grep_files", map[string]any{"pattern": "zebra"}, tool.Success("no matches")},
		{"grep limit", "grep_files", map[string]any{"pattern": "o", "limit": 1}, tool.Success("a.txt:1: hello\n… (limit of 1 matches reached)\n")},
		{"grep bad pattern", "grep_files", map[string]any{"pattern": "("}, tool.Fail("pattern: error parsing regexp: missing closing ): `(`")},
		{"grep empty pattern", "grep_files", map[string]any{"pattern": ""}, tool.Fail(`invalid arguments for tool "grep_files": pattern: want at least 1 characters, got 0`)},

		{"write new", "write_file", map[string]any{"path": "new/dir/c.txt", "content": "x\n"}, tool.Success("wrote 2 bytes to new/dir/c.txt")},
		{"write dotdot", "write_file", map[string]any{"path": "../x.txt", "content": "x"}, tool.Fail("path ../x.txt is " + outsideRoot + " " + root)},
		{"write through symlinked dir", "write_file", map[string]any{"path": "linkdir/x.txt", "content": "x"}, tool.Fail("path linkdir/x.txt is " + outsideRoot + " " + root + ": a symbolic link on it leads out")},
		{"write a directory", "write_file", map[string]any{"path": "sub", "content": "x"}, tool.Fail("sub is a directory")},
		{"write asks", "write_file", map[string]any{"path": "a.txt", "content": "x"},
			tool.Ask(tool.Question{ID: "overwrite", Text: "Overwrite a.txt (12 bytes)?", AnswerType: tool.Boolean, Default: false})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := sdktest.Run(t, find(tt.tool), tt.args, &sdktest.Options{Root: root})
			got.Structured = nil // grep_files's: see TestGrepStructured
			if tt.want.Type == tool.KindError {
				tt.want.Trace = []string{}
			}
			if g, w := jsonOf(t, got), jsonOf(t, tt.want); g != w {
				t.Errorf("outcome mismatch\nwant %s\ngot  %s", w, g)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(root), "x.txt")); err == nil {
		t.Error("a write escaped the root")
	}
}

// TestGrepStructured checks grep_files's structured output and its
// progress events, and what a host of protocol v1 gets: the same text.
func TestGrepStructured(t *testing.T) {
	root := workspace(t)
	grep := find("grep_files")
	events, o := sdktest.RunEvents(t, grep, map[string]any{"pattern": "l+o"}, &sdktest.Options{Root: root})
	got := sdktest.Structured[GrepResult](t, o)
	want := GrepResult{Matches: []GrepMatch{{"a.txt", 1, "hello"}, {"sub/b.go", 3, "func Hello() {}"}}}
	if jsonOf(t, got) != jsonOf(t, want) || o.Content != "a.txt:1: hello\nsub/b.go:3: func Hello() {}\n" {
		t.Errorf("structured = %s, content %q", jsonOf(t, got), o.Content)
	}
	// Files: a.txt, sub/b.go (link and linkdir lead outside and are not regular files).
	wantEvents := `[{"type":"progress","progress":1,"total":2,"message":"a.txt"},{"type":"progress","progress":2,"total":2,"message":"sub/b.go"}]`
	if g := jsonOf(t, events); g != wantEvents {
		t.Errorf("events mismatch\nwant %s\ngot  %s", wantEvents, g)
	}

	o = sdktest.Run(t, grep, map[string]any{"pattern": "o", "limit": 1}, &sdktest.Options{Root: root})
	if got := sdktest.Structured[GrepResult](t, o); len(got.Matches) != 1 || !got.Truncated {
		t.Errorf("limited = %s", jsonOf(t, got))
	}
	o = sdktest.Run(t, grep, map[string]any{"pattern": "zebra"}, &sdktest.Options{Root: root})
	if o.Content != "no matches" || jsonOf(t, o.Structured) != `{"matches":[],"truncated":false}` {
		t.Errorf("none = %s", jsonOf(t, o))
	}
	v1 := sdktest.Run(t, grep, map[string]any{"pattern": "l+o"}, &sdktest.Options{Root: root, Protocol: "1"})
	if v1.Content != "a.txt:1: hello\nsub/b.go:3: func Hello() {}\n" || v1.Structured != nil {
		t.Errorf("v1 = %s", jsonOf(t, v1))
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

// TestOverwrite follows the question round trip: no answer asks, false
// leaves the file alone, true overwrites it.
func TestOverwrite(t *testing.T) {
	root := workspace(t)
	w := find("write_file")
	args := map[string]any{"path": "a.txt", "content": "new\n"}
	read := func() string {
		b, err := os.ReadFile(filepath.Join(root, "a.txt"))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}

	o := sdktest.Run(t, w, args, &sdktest.Options{Root: root})
	if o.Type != tool.KindNeedsInput || o.Question.ID != "overwrite" || o.Question.Default != false {
		t.Fatalf("first run = %s, want the overwrite question", jsonOf(t, o))
	}
	if read() != "hello\nworld\n" {
		t.Fatal("file changed before the answer")
	}
	o = sdktest.Run(t, w, args, &sdktest.Options{Root: root, Answers: map[string]any{"overwrite": false}})
	if want := `a.txt exists and was not overwritten (the answer to "overwrite" was no, or its default when nobody could be asked)`; o.Message != want || read() != "hello\nworld\n" {
		t.Fatalf("answer false = %s, file %q", jsonOf(t, o), read())
	}
	o = sdktest.Run(t, w, args, &sdktest.Options{Root: root, Answers: map[string]any{"overwrite": true}})
	if o.Content != "wrote 4 bytes to a.txt" || read() != "new\n" {
		t.Fatalf("answer true = %s, file %q", jsonOf(t, o), read())
	}
}

func TestFormat(t *testing.T) {
	long := strings.Repeat("line\n", 12)
	tests := []struct {
		tool string
		args map[string]any
		want string
	}{
		{"write_file", map[string]any{"path": "a.txt", "content": "one\ntwo\n"}, "write a.txt (8 bytes, 2 lines)\n  │ one\n  │ two"},
		{"write_file", map[string]any{"path": "b.txt", "content": long}, "write b.txt (60 bytes, 12 lines)\n" + strings.Repeat("  │ line\n", 10) + "  … 2 more lines"},
		{"write_file", map[string]any{"path": "c.txt", "content": "x"}, "write c.txt (1 byte, 1 line)\n  │ x"},
		{"write_file", map[string]any{"path": "d.txt", "content": strings.Repeat("l\n", 11)}, "write d.txt (22 bytes, 11 lines)\n" + strings.Repeat("  │ l\n", 10) + "  … 1 more line"},
		{"read_file", map[string]any{"path": "a.txt"}, "path: a.txt\noffset: 0\nlimit: 2000"},
		{"grep_files", map[string]any{"pattern": "x", "glob": "*.go"}, "pattern: x\ndir: .\nglob: *.go\nlimit: 100"},
	}
	for _, tt := range tests {
		o := sdktest.Format(t, find(tt.tool), tt.args, nil)
		if o.Type != tool.KindSuccess || o.Content != tt.want {
			t.Errorf("format %s %v:\nwant %q\ngot  %s", tt.tool, tt.args, tt.want, jsonOf(t, o))
		}
	}
}

// TestBinary builds bin/fs and drives it through stdin, as a host does.
func TestBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "fs")
	if out, err := exec.CommandContext(t.Context(), "go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	root := workspace(t)
	ctx := `"context":{"action":"%s","root":"` + root + `","workspace_id":"w","conversation_id":"c"}`
	tests := []struct {
		name  string
		stdin string
		code  int
		want  string // a substring of stdout
	}{
		{"schema", `{"protocol":"1",` + strings.Replace(ctx, "%s", "schema", 1) + `}`, 0, `"name":"write_file"`},
		{"run", `{"protocol":"1",` + strings.Replace(ctx, "%s", "run", 1) + `,"tool":{"name":"read_file","arguments":{"path":"a.txt"}}}`, 0, `{"type":"success","content":"hello\nworld\n"}`},
		{"escape", `{"protocol":"1",` + strings.Replace(ctx, "%s", "run", 1) + `,"tool":{"name":"read_file","arguments":{"path":"link"}}}`, 0, `outside the workspace root`},
		{"empty", "", 2, `"message":"empty request on stdin`},
		{"write the tool configuration", `{"protocol":"1",` + strings.Replace(ctx, "%s", "run", 1) + `,"tool":{"name":"write_file","arguments":{"path":".config/toolhost/x.toml","content":"[tools.x]\ncommand = \"touch pwned\"\n"}}}`, 0,
			`{"type":"error","message":"refusing to write .config/toolhost/x.toml: a tool may not write into .config/toolhost`},
		{"not JSON", "{", 2, `"message":"request is not valid JSON`},
		{"unknown action", `{"context":{"action":"delete"}}`, 2, `unknown action \"delete\"`},
		{"wrong type", `{` + strings.Replace(ctx, "%s", "run", 1) + `,"tool":{"name":"read_file","arguments":{"path":["a"]}}}`, 2, `path: want string, got array`},
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
			if !strings.Contains(stdout.String(), tt.want) || !json.Valid(stdout.Bytes()) {
				t.Errorf("stdout = %q, want JSON containing %q", stdout.String(), tt.want)
			}
			if strings.Contains(stderr.String(), "goroutine ") {
				t.Errorf("stderr holds a Go trace:\n%s", stderr.String())
			}
		})
	}
	if _, err := os.Stat(filepath.Join(root, ".config")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("write_file created .config: %v", err)
	}
}

// TestWriteProtected: write_file never writes into .git or
// .config/toolhost, at any depth, whatever the spelling of the path and
// through symbolic links inside the root, and says why; nearby names are
// written as usual.
func TestWriteProtected(t *testing.T) {
	root := workspace(t)
	for _, d := range []string{".config/toolhost", "sub/.git"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{
		"tocfg":    ".config/toolhost",          // a directory link into it
		"dangling": ".config/toolhost/new.toml", // a link to a file that is not there yet
		"chain":    "tocfg",                     // a link to a link
		"sub/up":   "../.git",                   // a relative link with ..
		"loop":     "loop",                      // a loop: os.Root refuses it
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	const cfgWhy = "a tool may not write into .config/toolhost, because its files configure the tools toolhost runs; a person can edit it"
	const gitWhy = "a tool may not write into .git, because its hooks and config run commands; a person can edit it"
	tests := []struct {
		path string
		want string // the error message; "" written
	}{
		{".config/toolhost/x.toml", "refusing to write .config/toolhost/x.toml: " + cfgWhy},
		{"./.config/toolhost/../toolhost/x.toml", "refusing to write ./.config/toolhost/../toolhost/x.toml: " + cfgWhy},
		{"sub/../.config/toolhost/x.toml", "refusing to write sub/../.config/toolhost/x.toml: " + cfgWhy},
		{".config/toolhost", "refusing to write .config/toolhost: " + cfgWhy},
		{".CONFIG/TOOLHOST/x.toml", "refusing to write .CONFIG/TOOLHOST/x.toml: " + cfgWhy},
		{"deep/.config/toolhost/x.toml", "refusing to write deep/.config/toolhost/x.toml: " + cfgWhy},
		{".git/hooks/pre-commit", "refusing to write .git/hooks/pre-commit: " + gitWhy},
		{".Git/config", "refusing to write .Git/config: " + gitWhy},
		{"sub/.git/config", "refusing to write sub/.git/config: " + gitWhy},
		{"tocfg/x.toml", "refusing to write tocfg/x.toml (it leads to .config/toolhost/x.toml through a symbolic link): " + cfgWhy},
		{"chain/x.toml", "refusing to write chain/x.toml (it leads to .config/toolhost/x.toml through a symbolic link): " + cfgWhy},
		{"dangling", "refusing to write dangling (it leads to .config/toolhost/new.toml through a symbolic link): " + cfgWhy},
		{"sub/up/config", "refusing to write sub/up/config (it leads to .git/config through a symbolic link): " + gitWhy},
		{"loop/x", "writing loop/x: too many levels of symbolic links"},
		{".config/other/x.toml", ""},
		{".configx/toolhost/x.toml", ""},
		{"toolhost/.config/x.toml", ""},
		{".gitignore", ""},
		{"git/x", ""},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			o := sdktest.Run(t, find("write_file"), map[string]any{"path": tt.path, "content": "[tools.x]\ncommand = \"touch pwned\"\n"}, &sdktest.Options{Root: root})
			if tt.want == "" {
				if o.Type != tool.KindSuccess {
					t.Fatalf("write %s = %s, want success", tt.path, jsonOf(t, o))
				}
				return
			}
			if o.Type != tool.KindError || o.Message != tt.want {
				t.Fatalf("write %s mismatch:\nwant error %q\ngot  %s", tt.path, tt.want, jsonOf(t, o))
			}
		})
	}
	for d, want := range map[string]int{".config/toolhost": 0, ".git": 1, "sub/.git": 0} { // .git holds HEAD
		if entries, _ := os.ReadDir(filepath.Join(root, d)); len(entries) != want {
			t.Errorf("%s holds %d entries after the refused writes, want %d", d, len(entries), want)
		}
	}
}
