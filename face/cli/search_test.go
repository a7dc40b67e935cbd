package cli

import (
	"strings"
	"testing"

	"github.com/toolhost/toolhost/tool"
)

// TestSearch: search ranks the catalog's tools for a query as
// search_tools does, and prints the best, name and summary, or with
// --json their definitions as list --json does; --limit bounds them.
func TestSearch(t *testing.T) {
	for _, tt := range []struct {
		name   string
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{"one word", []string{"search", "question"}, 0,
			"NAME  DESCRIPTION\nask   Asks a question.\n", ""},
		{"several words, ranked", []string{"search", "say", "something", "or", "fail"}, 0,
			"NAME  DESCRIPTION\necho  Say something.\nfail  Always fails.\n", ""},
		{"limit", []string{"search", "say", "something", "or", "fail", "--limit", "1"}, 0,
			"NAME  DESCRIPTION\necho  Say something.\n", ""},
		{"no match", []string{"search", "kubernetes"}, 0, "",
			"no tool matches \"kubernetes\" (4 tools searched; toolhost list shows them all)\n"},
		{"json", []string{"search", "fails", "--json"}, 0,
			"{\n  \"tools\": [\n    {\n      \"name\": \"fail\",\n      \"description\": \"Always fails.\",\n      \"inputSchema\": {\n        \"properties\": {},\n        \"type\": \"object\"\n      }\n    }\n  ]\n}\n", ""},
		{"limit out of range", []string{"search", "x", "--limit", "0"}, 2, "",
			"toolhost: --limit 0: give 1 to 50\nRun 'toolhost search --help' for usage.\n"},
		{"no query", []string{"search"}, 2, "",
			"toolhost: usage: toolhost search QUERY…\nRun 'toolhost search --help' for usage.\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := run(t, tools, tt.args...)
			if r.code != tt.code || r.stdout != tt.stdout || r.stderr != tt.stderr {
				t.Errorf("exit %d, stdout %q\nstderr %q\nwant %d, %q\nstderr %q", r.code, r.stdout, r.stderr, tt.code, tt.stdout, tt.stderr)
			}
		})
	}
}

// TestBriefText: a summary in a table of one line per tool is whole
// without a width; with one, its first sentence, cut with "…" to what the
// first column leaves, at least 20 runes.
func TestBriefText(t *testing.T) {
	for _, tt := range []struct {
		s                string
		nameWidth, width int
		want             string
	}{
		{"Read a file.\nIt may be large.", 4, 0, "Read a file. It may be large."},
		{"Read a file. It may be large.", 4, 80, "Read a file."},
		{"Read a file! Then more.", 4, 80, "Read a file!"},
		{"Version 1.2 of the reader, which reads files", 4, 30, "Version 1.2 of the read…"},
		{"Read a file. It may be large.", 40, 50, "Read a file."},
		{"Reads every file it is given, whatever its size", 40, 50, "Reads every file it…"},
		{"héllo wörld ünïcode tëxt", 4, 26, "héllo wörld ünïcode…"},
	} {
		if got := briefText(tt.s, tt.nameWidth, tt.width); got != tt.want {
			t.Errorf("briefText(%q, %d, %d) = %q, want %q", tt.s, tt.nameWidth, tt.width, got, tt.want)
		}
	}
}

// TestSingleSpaced: a text singleSpaced accepts is what strings.Fields
// and strings.Join make of it, and every other text is refused.
func TestSingleSpaced(t *testing.T) {
	for _, tt := range []struct {
		s    string
		want bool
	}{
		{"", true},
		{"a", true},
		{"Read a file.", true},
		{" a", false},
		{"a ", false},
		{" ", false},
		{"a  b", false},
		{"a\tb", false},
		{"a\nb", false},
		{"a\rb", false},
		{"a\vb", false},
		{"a\fb", false},
		{"a\u00a0b", false}, // a space outside ASCII
		{"a\u0085b", false},
		{"héllo", false}, // not ASCII: left to Fields
	} {
		if got := singleSpaced(tt.s); got != tt.want {
			t.Errorf("singleSpaced(%q) = %v, want %v", tt.s, got, tt.want)
		}
		if fields := strings.Join(strings.Fields(tt.s), " "); tt.want && fields != tt.s {
			t.Errorf("singleSpaced(%q) but Fields and Join give %q", tt.s, fields)
		}
	}
}

// TestAccessRules: describe --explain shows context.access as rules
// people read, not as the JSON the tool gets (full of nulls).
func TestAccessRules(t *testing.T) {
	yes, no := true, false
	port, scheme, prefix, target := uint16(443), "https", "/v1/", "/home/u/fork"
	for _, tt := range []struct {
		name string
		ap   *tool.AccessPolicy // nil: null
		want []string
	}{
		{"null", nil, []string{"none sent: the tool is told no rules"}},
		{"empty", &tool.AccessPolicy{}, []string{"no rules: nothing restricted"}},
		{"rules", &tool.AccessPolicy{
			FS: []tool.FSRule{
				{LexicalPath: "", Read: &yes},
				{LexicalPath: "src", Read: &yes, Write: &yes, Delete: &no},
				{LexicalPath: "vendor/fork", External: true, ApprovedTarget: &target, Read: &yes},
				{LexicalPath: "secret"},
			},
			Net: []tool.NetRule{{Host: "api.github.com", Scheme: &scheme, Port: &port, PathPrefix: &prefix, Allow: true}, {Host: "evil.example"}},
			Env: []tool.EnvRule{{Name: "HOME", Read: true}, {Name: "AWS_*"}},
		}, []string{
			"fs . (the workspace root): read",
			"fs src: read, write, no delete",
			"fs vendor/fork (external, resolving to /home/u/fork): read",
			"fs secret: nothing",
			"net https://api.github.com:443/v1/…: allow",
			"net evil.example: deny",
			"env HOME: read",
			"env AWS_*: no read",
		}},
	} {
		raw := []byte("null")
		if tt.ap != nil {
			var err error
			if raw, err = tool.Marshal(tt.ap); err != nil {
				t.Fatal(err)
			}
		}
		if got := accessRules(raw); strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
			t.Errorf("%s: accessRules(%s) mismatch (-want +got):\n-%s\n+%s", tt.name, raw, strings.Join(tt.want, "\n"), strings.Join(got, "\n"))
		}
	}
}

// TestDescribeWrapsLongValues: describe --explain wraps a long value, so
// that the provenance column stays beside the values, not 400 columns to
// the right.
func TestDescribeWrapsLongValues(t *testing.T) {
	summary := strings.Repeat("Greet someone by name. ", 8)
	dir := workspace(t, "[tools.greet]\ncommand = [{{exe}}, \"greet-desc\"]\n")
	t.Setenv("FAKE_SUMMARY", summary)
	r := runIn(t, dir, "", nil, "--no-cache", "describe", "greet", "--explain")
	head, _, _ := strings.Cut(r.stdout, "\nSOURCE")
	want := "NAME     greet\n" +
		"SUMMARY  Greet someone by name. Greet someone by name. Greet someone   (binary)\n" +
		"         by name. Greet someone by name. Greet someone by name. Greet\n" +
		"         someone by name. Greet someone by name. Greet someone by\n" +
		"         name."
	if r.code != 0 || head != want {
		t.Errorf("exit %d, head mismatch (-want +got):\n-%s\n+%s", r.code, want, head)
	}
}
