package invoke

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/tool"
)

// SplitCommand splits a command string into argv tokens the way a POSIX
// shell splits words (a test helper: it checks that [shellQuote] makes one
// word of anything; configuration commands are split by config.SplitWords,
// which also keeps {{ … }} templates whole), without running a shell: blanks separate words,
// single quotes keep everything literally, double quotes keep everything
// but \" \\ \$ \` and backslash-newline, and a backslash outside quotes
// escapes the next character (backslash-newline joins lines). Nothing is
// expanded: $VAR, $(…), ~, globs, ; | & and # are ordinary characters.
// An unterminated quote or a trailing backslash is an error.
//
//	SplitCommand(`bin/x --name "a b" 'c d'`) → ["bin/x", "--name", "a b", "c d"]
func SplitCommand(s string) ([]string, error) {
	var (
		args   []string
		cur    strings.Builder
		inWord bool
	)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case ' ', '\t', '\n', '\r':
			if inWord {
				args = append(args, cur.String())
				cur.Reset()
				inWord = false
			}
		case '\\':
			if i+1 >= len(s) {
				return nil, fmt.Errorf("command %q: trailing backslash escapes nothing", s)
			}
			i++
			if s[i] == '\n' {
				continue // line continuation
			}
			cur.WriteByte(s[i])
			inWord = true
		case '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("command %q: unterminated single quote at offset %d", s, i)
			}
			cur.WriteString(s[i+1 : i+1+j])
			inWord = true
			i += j + 1
		case '"':
			start := i
			inWord = true
			for i++; ; i++ {
				if i >= len(s) {
					return nil, fmt.Errorf("command %q: unterminated double quote at offset %d", s, start)
				}
				if s[i] == '"' {
					break
				}
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`\n", s[i+1]) >= 0 {
					i++
					if s[i] == '\n' {
						continue
					}
				}
				cur.WriteByte(s[i])
			}
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		args = append(args, cur.String())
	}
	return args, nil
}

func TestSplitCommand(t *testing.T) {
	tests := []struct {
		in   string
		want []string
		err  string
	}{
		{"", nil, ""},
		{"   \t\n", nil, ""},
		{"bin/x", []string{"bin/x"}, ""},
		{"  bin/x  a\tb\nc ", []string{"bin/x", "a", "b", "c"}, ""},
		{`bin/x --name "a b" 'c d'`, []string{"bin/x", "--name", "a b", "c d"}, ""},
		{`a"b"'c'd`, []string{"abcd"}, ""},
		{`"" ''`, []string{"", ""}, ""},
		{`'it'\''s'`, []string{"it's"}, ""},
		{`"say \"hi\" \\ \$x \a"`, []string{`say "hi" \ $x \a`}, ""},
		{`'no \escapes $here'`, []string{`no \escapes $here`}, ""},
		{`a\ b c\"d \'`, []string{"a b", `c"d`, "'"}, ""},
		{"a\\\nb", []string{"ab"}, ""},
		{"\"a\\\nb\"", []string{"ab"}, ""},
		{`echo $HOME $(id) ; x | y && z # not a comment *`, []string{"echo", "$HOME", "$(id)", ";", "x", "|", "y", "&&", "z", "#", "not", "a", "comment", "*"}, ""},
		{"jp-tools {{context}} {{tool}}", []string{"jp-tools", "{{context}}", "{{tool}}"}, ""},
		{`wc -l "{{ tool.arguments.path }}"`, []string{"wc", "-l", "{{ tool.arguments.path }}"}, ""},
		{"héllo 'wörld'", []string{"héllo", "wörld"}, ""},
		{`bin/x 'unterminated`, nil, `command "bin/x 'unterminated": unterminated single quote at offset 6`},
		{`bin/x "unterminated`, nil, `command "bin/x \"unterminated": unterminated double quote at offset 6`},
		{`bin/x "a\"`, nil, `command "bin/x \"a\\\"": unterminated double quote at offset 6`},
		{`bin/x \`, nil, `command "bin/x \\": trailing backslash escapes nothing`},
	}
	for _, tt := range tests {
		got, err := SplitCommand(tt.in)
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("SplitCommand(%q) error = %v, want %s", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("SplitCommand(%q): %v", tt.in, err)
			continue
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("SplitCommand(%q) mismatch:\nwant %q\ngot  %q", tt.in, tt.want, got)
		}
	}
}

// shellQuote quotes s for /bin/sh so that it is one word with no expansion
// (a test helper for SplitCommand's round trip; Run passes values as
// positional parameters and never quotes them). Words made only of safe
// characters are left bare.
func shellQuote(s string) string {
	if s == "" {
		return "''"
	}
	safe := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
			strings.IndexByte("_-./,:@%+", c) >= 0) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// FuzzSplitCommand checks that splitting never panics and that quoting the
// tokens and splitting again gives them back.
func FuzzSplitCommand(f *testing.F) {
	for _, s := range []string{`bin/x --name "a b" 'c d'`, `'it'\''s'`, `"\\\"$"`, "a\\\nb", `"x`, `\`, "{{tool}}", "a\x00b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tokens, err := SplitCommand(s)
		if err != nil {
			return
		}
		quoted := make([]string, len(tokens))
		for i, tok := range tokens {
			quoted[i] = shellQuote(tok)
		}
		again, err := SplitCommand(strings.Join(quoted, " "))
		if err != nil {
			t.Fatalf("re-splitting %q: %v", quoted, err)
		}
		if !slices.Equal(again, tokens) {
			t.Fatalf("round trip of %q:\nwant %q\ngot  %q", s, tokens, again)
		}
	})
}

func TestRender(t *testing.T) {
	req := &tool.Request{
		Protocol: tool.Version,
		Context:  tool.Context{Action: tool.ActionRun, Root: "/w s", WorkspaceID: "w-1", ConversationID: "s-1"},
		Tool: &tool.Call{Name: "wc", Arguments: map[string]any{
			"path":  "a b.txt",
			"n":     3,
			"big":   12345678901234567890.0,
			"f":     1.5,
			"ok":    true,
			"none":  nil,
			"list":  []any{"x", 2, map[string]any{"k": "v"}},
			"obj":   map[string]any{"a": map[string]any{"b": "deep"}, "z": 1},
			"html":  "<a&b>",
			"empty": "",
		}},
	}
	wantContext := `{"action":"run","root":"/w s","workspace_id":"w-1","conversation_id":"s-1","access":null}`
	// <, > and & are not escaped: the bytes are what the JP assistant writes.
	toolJSON := `{"name":"wc","arguments":{"big":12345678901234567000,"empty":"","f":1.5,"html":"<a&b>","list":["x",2,{"k":"v"}],"n":3,"none":null,"obj":{"a":{"b":"deep"},"z":1},"ok":true,"path":"a b.txt"},"answers":{},"options":{}}`
	tests := []struct {
		tok, want, err string
	}{
		{"plain", "plain", ""},
		{"}} {x} {", "}} {x} {", ""},
		{"{{context}}", wantContext, ""},
		{"{{ context }}", wantContext, ""},
		{"{{tool}}", toolJSON, ""},
		{"{{context.root}}", "/w s", ""},
		{"{{context.action}}", "run", ""},
		{"{{context.access}}", "null", ""},
		{"{{tool.name}}", "wc", ""},
		{"{{tool.arguments.path}}", "a b.txt", ""},
		{"{{\ttool.arguments.path }}", "a b.txt", ""},
		{"--path={{tool.arguments.path}}!", "--path=a b.txt!", ""},
		{"{{tool.arguments.n}}", "3", ""},
		{"{{tool.arguments.big}}", "12345678901234567000", ""},
		{"{{tool.arguments.f}}", "1.5", ""},
		{"{{tool.arguments.ok}}", "true", ""},
		{"{{tool.arguments.none}}", "null", ""},
		{"{{tool.arguments.missing}}", "null", ""},
		{"{{tool.arguments.missing.deeper}}", "null", ""},
		{"{{tool.arguments.path.deeper}}", "null", ""},
		{"{{tool.arguments.empty}}", "", ""},
		{"{{tool.arguments.list}}", `["x",2,{"k":"v"}]`, ""},
		{"{{tool.arguments.list.0}}", "x", ""},
		{"{{tool.arguments.list.2.k}}", "v", ""},
		{"{{tool.arguments.list.9}}", "null", ""},
		{"{{tool.arguments.list.x}}", "null", ""},
		{"{{tool.arguments.obj}}", `{"a":{"b":"deep"},"z":1}`, ""},
		{"{{tool.arguments.obj.a.b}}", "deep", ""},
		{"{{tool.arguments.html}}", "<a&b>", ""},
		{"{{tool.arguments.n}}-{{tool.arguments.ok}}", "3-true", ""},
		{"{{tool.arguments", "", `command token 0 "{{tool.arguments": unclosed {{ at offset 0`},
		{"a{{tool}}b{{", "", `command token 0 "a{{tool}}b{{": unclosed {{ at offset 10`},
		{"{{}}", "", `command token 0 "{{}}": empty template {{}}: want {{context}}, {{tool}} or a path such as {{tool.arguments.x}}`},
		{"{{  }}", "", `command token 0 "{{  }}": empty template {{}}: want {{context}}, {{tool}} or a path such as {{tool.arguments.x}}`},
		{"{{args.x}}", "", `command token 0 "{{args.x}}": template {{args.x}}: unknown root "args" (want context or tool)`},
		{"{{tool..x}}", "", `command token 0 "{{tool..x}}": template {{tool..x}} has an empty path segment`},
	}
	for _, tt := range tests {
		got, err := Render([]string{tt.tok}, req)
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("Render(%q) error = %v, want %s", tt.tok, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("Render(%q): %v", tt.tok, err)
			continue
		}
		if len(got) != 1 || got[0] != tt.want {
			t.Errorf("Render(%q) = %q, want %q", tt.tok, got, tt.want)
		}
	}

	// {{tool}} is null for a schema request, and the JSON is the stdin's.
	schemaReq := &tool.Request{Protocol: tool.Version, Context: tool.Context{Action: tool.ActionSchema}}
	got, err := Render([]string{"bin/x", "{{context}}", "{{tool}}", "{{tool.arguments.x}}"}, schemaReq)
	if err != nil {
		t.Fatal(err)
	}
	ctxJSON, _ := tool.Marshal(schemaReq.Context)
	if want := []string{"bin/x", string(ctxJSON), "null", "null"}; !slices.Equal(got, want) {
		t.Errorf("schema request mismatch:\nwant %q\ngot  %q", want, got)
	}
	stdin, _ := tool.Marshal(req)
	if rendered, _ := Render([]string{"{{context}}", "{{tool}}"}, req); !strings.Contains(string(stdin), rendered[0]) || !strings.Contains(string(stdin), rendered[1]) {
		t.Errorf("rendered %q is not the JSON on stdin %s", rendered, stdin)
	}
}

// FuzzRender checks that rendering never panics and leaves tokens without
// "{{" alone.
func FuzzRender(f *testing.F) {
	for _, s := range []string{"{{context}}", "{{tool.arguments.x}}", "a{{ tool.arguments.list.0 }}b", "{{", "{{}}", "}}{{tool", "{{tool..}}", "{{{{tool}}}}"} {
		f.Add(s, `{"x":"v","list":[1,{"a":null}]}`)
	}
	f.Fuzz(func(t *testing.T, tok, args string) {
		var arguments map[string]any
		_ = json.Unmarshal([]byte(args), &arguments)
		req := &tool.Request{Context: tool.Context{Action: tool.ActionRun}, Tool: &tool.Call{Name: "t", Arguments: arguments}}
		got, err := Render([]string{"bin/x", tok}, req)
		if err != nil {
			if !strings.Contains(tok, "{{") {
				t.Fatalf("error for a token without templates %q: %v", tok, err)
			}
			return
		}
		if len(got) != 2 || got[0] != "bin/x" {
			t.Fatalf("Render changed the argv shape: %q", got)
		}
		if !strings.Contains(tok, "{{") && got[1] != tok {
			t.Fatalf("token without templates changed: %q → %q", tok, got[1])
		}
	})
}

// TestSecretAnswersRedactedInArgv: an answer whose value is one of
// Spec.SecretAnswers renders as [redacted] wherever a template reaches
// it, shell or not; other answers, and the request itself, are untouched.
func TestSecretAnswersRedactedInArgv(t *testing.T) {
	req := request(tool.ActionRun, "/ws", map[string]any{"x": "pw1"})
	req.Tool.Answers = map[string]any{"password": "pw1", "color": "red"}
	tests := []struct {
		command []string
		shell   bool
		want    []string
	}{
		{[]string{"t", "{{tool.answers.password}}", "{{tool.answers.color}}"}, false, []string{"t", "[redacted]", "red"}},
		{[]string{"t", "{{tool}}"}, false, []string{"t", `{"name":"greet","arguments":{"x":"pw1"},"answers":{"color":"red","password":"[redacted]"},"options":{}}`}},
		{[]string{"echo {{tool.answers.password}}"}, true, []string{"/bin/sh", "-c", `echo "${1}"`, "sh", "[redacted]"}},
	}
	for _, tt := range tests {
		got, err := commandLine(&Spec{Command: tt.command, Shell: tt.shell, SecretAnswers: []string{"pw1"}}, req)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("argv of %q mismatch:\nwant %q\ngot  %q", tt.command, tt.want, got)
		}
	}
	if req.Tool.Answers["password"] != "pw1" {
		t.Errorf("the request's answer was changed: %v", req.Tool.Answers)
	}
}
