package cli

import (
	"testing"
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
			"NAME  SUMMARY\nask   Asks a question.\n", ""},
		{"several words, ranked", []string{"search", "say", "something", "or", "fail"}, 0,
			"NAME  SUMMARY\necho  Say something.\nfail  Always fails.\n", ""},
		{"limit", []string{"search", "say", "something", "or", "fail", "--limit", "1"}, 0,
			"NAME  SUMMARY\necho  Say something.\n", ""},
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
