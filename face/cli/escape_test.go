package cli

import (
	"encoding/json"
	"maps"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolhost/toolhost/tool"
)

func init() {
	fakeTools["hostile"] = fakeHostile
}

// Control sequences a hostile tool puts in its text: the clipboard
// (OSC 52), a screen clear, the window title, and an 8-bit CSI.
const (
	oscClipboard = "\x1b]52;c;ZXZpbA==\x07"
	clearScreen  = "\x1b[2J"
	setTitle     = "\x1b]0;pwned\x07"
	csi8         = "\u009b2J"
)

// fakeHostile is one tool, "hostile", whose every text carries control
// sequences: text=fail returns an error outcome, text=crash writes them on
// stderr and exits 3 without an answer; anything else succeeds.
func fakeHostile() int {
	def := tool.Definition{
		Name:        "hostile",
		Summary:     "Hostile" + oscClipboard + " tool.",
		Description: "Clears" + clearScreen + " the screen.",
		Parameters: map[string]*tool.Parameter{
			"text": {Type: tool.Types{"string"}, Summary: "Sets" + setTitle + " the title."},
		},
	}
	return fakeServe([]tool.Definition{def}, func(req *tool.Request) tool.Outcome {
		switch req.Tool.Arguments["text"] {
		case "fail":
			return tool.Fail("failed" + setTitle + csi8)
		case "crash":
			os.Stderr.WriteString("boom" + setTitle + "\n")
			os.Exit(3)
		}
		return tool.Success("out" + clearScreen + oscClipboard + csi8 + "\r\nline 2\tend\n")
	})
}

const hostileTOML = "[tools.hostile]\ncommand = [{{exe}}, \"hostile\"]\n"

func TestEscapeControls(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain text\n\twith tab", "plain text\n\twith tab"},
		{"héllo, 世界", "héllo, 世界"},
		{oscClipboard, `\x1b]52;c;ZXZpbA==\x07`},
		{clearScreen, `\x1b[2J`},
		{"a\rb", `a\x0db`},
		{"a\r\nb", "a\r\nb"},
		{"end\r", `end\x0d`},
		{"nul\x00del\x7f", `nul\x00del\x7f`},
		{"c1 \u0085 \u009b \u00a0", `c1 \u0085 \u009b ` + "\u00a0"},
		{"bad \xff \x9b \xc2", `bad \xff \x9b \xc2`},
		{"abc\u202edcba\u2066x\u2069\u2028\ufeff", `abc\u202edcba\u2066x\u2069\u2028\ufeff`},
		{`a\x1b`, `a\x1b`}, // a backslash is kept: the escaped text is for reading
	}
	for _, tt := range tests {
		if got := escapeControls(tt.in); got != tt.want {
			t.Errorf("escapeControls(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestEscapeJSON(t *testing.T) {
	tests := []struct{ in, want string }{
		{"{\"a\": \"plain é 世界\"}\n", "{\"a\": \"plain é 世界\"}\n"},
		{"{\"a\": \"x\u009by\u00e9\"}\n", "{\"a\": \"x\\u009by\u00e9\"}\n"},
		{"[\"del\x7f\"]", `["del\u007f"]`},
		{"[\"abc\u202edcba\u2066x\u2069\u2028\ufeff\"]", `["abc\u202edcba\u2066x\u2069\u2028\ufeff"]`},
		{`["\u001b is escaped already"]`, `["\u001b is escaped already"]`},
	}
	for _, tt := range tests {
		if got := string(escapeJSON([]byte(tt.in))); got != tt.want {
			t.Errorf("escapeJSON(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// FuzzEscapeJSON: whatever string a JSON document holds, escapeJSON
// leaves the same value, with no DEL, C1 control or hidden character
// left as it is.
func FuzzEscapeJSON(f *testing.F) {
	for _, s := range []string{"plain", oscClipboard, csi8 + "\x7f", "abc\u202edcba\ufeff", "\xff\xc2\x9b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		data, err := json.Marshal(map[string]string{s: s})
		if err != nil {
			t.Skip()
		}
		got := escapeJSON(data)
		var want, back map[string]string
		if err := json.Unmarshal(data, &want); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(got, &back); err != nil || !maps.Equal(back, want) {
			t.Fatalf("escapeJSON(%q) = %q: decodes to %q (%v), want %q", data, got, back, err, want)
		}
		for i, r := range string(got) {
			if r == 0x7f || hiddenRune(r) {
				t.Fatalf("escapeJSON(%q) = %q: %U at %d", data, got, r, i)
			}
		}
	})
}

// FuzzEscapeControls: whatever the input, the escaped text is valid UTF-8
// with no control character but newline, tab and a CR before a newline,
// and text without any is returned unchanged.
func FuzzEscapeControls(f *testing.F) {
	for _, s := range []string{"plain", oscClipboard, clearScreen + csi8, "a\r\nb\r", "\xff\xc2\x9b\xe2\x82", "\u0085x\x7f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := escapeControls(s)
		if !utf8.ValidString(got) {
			t.Fatalf("escapeControls(%q) = %q: not valid UTF-8", s, got)
		}
		for i, r := range got {
			if r == '\r' && strings.HasPrefix(got[i:], "\r\n") {
				continue
			}
			if (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || hiddenRune(r) {
				t.Fatalf("escapeControls(%q) = %q: control %U at %d", s, got, r, i)
			}
		}
		if firstUnsafe(s) < 0 && got != s {
			t.Fatalf("escapeControls(%q) = %q: changed a text without controls", s, got)
		}
		if again := escapeControls(got); again != got {
			t.Fatalf("escaping twice changed %q to %q", got, again)
		}
	})
}

// TestPipeKeepsToolText: stdout and stderr that are not terminals get the
// tool's bytes as they are.
func TestPipeKeepsToolText(t *testing.T) {
	dir := workspace(t, hostileTOML)
	r := runIn(t, dir, "", nil, "call", "hostile", "text=hi")
	if want := "out" + clearScreen + oscClipboard + csi8 + "\r\nline 2\tend\n"; r.code != 0 || r.stdout != want {
		t.Errorf("call into a buffer: exit %d, stdout %q, want %q", r.code, r.stdout, want)
	}
	r = runIn(t, dir, "", nil, "call", "hostile", "text=fail")
	if want := "error: failed" + setTitle + csi8 + "\n"; r.code != 1 || r.stderr != want {
		t.Errorf("failing call into a buffer: exit %d, stderr %q, want %q", r.code, r.stderr, want)
	}
}
