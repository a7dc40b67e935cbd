package toolsearch_test

import (
	"slices"
	"testing"

	"github.com/toolhost/toolhost/internal/toolsearch"
)

// catalog is a small catalog whose rankings the tests spell out.
var catalog = []toolsearch.Doc{
	{Name: "read_file", Summary: "Read a file from the workspace.", Params: []toolsearch.Param{{Name: "path", Description: "File to read."}}, Tags: []string{"fs"}, Category: "files"},
	{Name: "write_file", Summary: "Write text to a file.", Params: []toolsearch.Param{{Name: "path", Description: "File to write."}, {Name: "content", Description: "The text."}}, Category: "files"},
	{Name: "file_search", Summary: "Find files whose names match a glob pattern.", Params: []toolsearch.Param{{Name: "pattern", Description: "A glob such as *.go."}}, Category: "files"},
	{Name: "grep", Summary: "Search the contents of files with a regular expression.", Params: []toolsearch.Param{{Name: "pattern", Description: "A Go regular expression."}, {Name: "path"}}},
	{Name: "git_commit", Title: "Git commit", Summary: "Record changes to the repository.", Tags: []string{"git", "vcs"}},
	{Name: "http_get", Summary: "Fetch a URL.", Description: "Sends an HTTP GET request and returns the body. Useful to read a web page.", Params: []toolsearch.Param{{Name: "url", Description: "The address to fetch."}}, Category: "network"},
	{Name: "readme_render", Summary: "Render a README as HTML."},
	{Name: "searchIssues", Summary: "Search the issue tracker.", Params: []toolsearch.Param{{Name: "labels", Description: "Only issues with these labels."}}, Tags: []string{"issues"}},
	{Name: "deploy", Title: "Deploy a release", Summary: "Ship the current build.", Description: "Builds, tags and pushes a release of the project."},
}

func names(hits []toolsearch.Hit) []string {
	out := []string{}
	for _, h := range hits {
		out = append(out, h.Name)
	}
	return out
}

func TestSearchOrder(t *testing.T) {
	ix := toolsearch.New(catalog)
	tests := []struct {
		query string
		limit int
		want  []string
	}{
		// the exact name first, then the tools with "file" in their names
		// (a tie, by name), then "read" as a prefix of a name's term
		// (readme), then in the summary and the description
		{"read_file", 0, []string{"read_file", "file_search", "write_file", "readme_render", "grep", "http_get"}},
		// the same name in other spellings
		{"ReadFile", 0, []string{"read_file", "file_search", "write_file", "readme_render", "grep", "http_get"}},
		{"read file", 1, []string{"read_file"}},
		{"read a file", 1, []string{"read_file"}},
		{"HTTPGet", 1, []string{"http_get"}},
		{"http-get", 1, []string{"http_get"}},
		{"search issues", 1, []string{"searchIssues"}},
		// a name's term before a summary's: file_search and searchIssues
		// tie, ordered by name; grep has it in its summary
		{"search", 0, []string{"file_search", "searchIssues", "grep"}},
		{"SEARCH", 0, []string{"file_search", "searchIssues", "grep"}},
		// stems meet: searching, searches, search
		{"searching", 0, []string{"file_search", "searchIssues", "grep"}},
		{"searches", 0, []string{"file_search", "searchIssues", "grep"}},
		// the name (read_file), then a prefix in a name (readme), then the description
		{"read", 0, []string{"read_file", "readme_render", "http_get"}},
		// title and tags count above the description
		{"git", 0, []string{"git_commit"}},
		{"vcs", 0, []string{"git_commit"}},
		{"release", 0, []string{"deploy"}},
		// a title above a description: deploy's title "Deploy a release"
		// names it too
		{"deploy", 0, []string{"deploy"}},
		// parameters: a name above a description
		{"pattern", 0, []string{"file_search", "grep"}},
		{"labels", 0, []string{"searchIssues"}},
		// several terms: the tool holding more of them first
		{"fetch a web page", 0, []string{"http_get"}},
		{"regular expression files", 0, []string{"grep", "file_search", "read_file", "write_file"}},
		// a prefix of 3 letters or more
		{"wri", 0, []string{"write_file"}},
		{"wr", 0, nil},
		// the limit
		{"file", 2, []string{"file_search", "read_file"}},
		// nothing to search for, or nothing found
		{"!!!", 0, nil},
		{"kubernetes", 0, nil},
		// only common words: they are searched for all the same; in
		// summaries (a tie, by name), a description, a parameter's text
		{"the", 0, []string{"deploy", "git_commit", "grep", "read_file", "searchIssues", "http_get", "write_file"}},
	}
	for _, tt := range tests {
		got := names(ix.Search(toolsearch.Query{Text: tt.query, Limit: tt.limit}))
		want := tt.want
		if want == nil {
			want = []string{}
		}
		if !slices.Equal(got, want) {
			t.Errorf("Search(%q) order mismatch:\nwant %q\ngot  %q", tt.query, want, got)
		}
	}
}

// TestSearchDeterministic: the order of the tools given to New does not
// change the hits, nor their scores.
func TestSearchDeterministic(t *testing.T) {
	a := toolsearch.New(catalog)
	rev := slices.Clone(catalog)
	slices.Reverse(rev)
	b := toolsearch.New(rev)
	for _, q := range []string{"file", "read a file", "search", "the", "pattern files regular"} {
		ha, hb := a.Search(toolsearch.Query{Text: q, Limit: 50}), b.Search(toolsearch.Query{Text: q, Limit: 50})
		if !slices.Equal(ha, hb) {
			t.Errorf("Search(%q) depends on the order of the tools:\n%v\n%v", q, ha, hb)
		}
	}
}

// TestSearchTies: tools that score the same are ordered by name, and a
// limit keeps the first by that order.
func TestSearchTies(t *testing.T) {
	var docs []toolsearch.Doc
	for _, n := range []string{"zeta_copy", "alpha_copy", "mid_copy", "beta_copy"} {
		docs = append(docs, toolsearch.Doc{Name: n, Summary: "Copy."})
	}
	ix := toolsearch.New(docs)
	for limit, want := range map[int][]string{
		1: {"alpha_copy"},
		3: {"alpha_copy", "beta_copy", "mid_copy"},
		9: {"alpha_copy", "beta_copy", "mid_copy", "zeta_copy"},
	} {
		hits := ix.Search(toolsearch.Query{Text: "copy", Limit: limit})
		if got := names(hits); !slices.Equal(got, want) {
			t.Errorf("limit %d: want %q, got %q", limit, want, got)
		}
		for _, h := range hits[1:] {
			if h.Score != hits[0].Score {
				t.Errorf("limit %d: %s scores %v, %s %v: want equal scores", limit, h.Name, h.Score, hits[0].Name, hits[0].Score)
			}
		}
	}
}

func TestSearchHitFields(t *testing.T) {
	hits := toolsearch.New(catalog).Search(toolsearch.Query{Text: "read_file", Limit: 1})
	if len(hits) != 1 || hits[0].Name != "read_file" || hits[0].Summary != "Read a file from the workspace." || hits[0].Score < toolsearch.ExactNameBonus {
		t.Fatalf("hit mismatch: got %+v", hits)
	}
}

func TestSearchEmptyIndex(t *testing.T) {
	ix := toolsearch.New(nil)
	if got := ix.Search(toolsearch.Query{Text: "file"}); len(got) != 0 || ix.Len() != 0 {
		t.Fatalf("empty index: got %v, Len %d", got, ix.Len())
	}
}
