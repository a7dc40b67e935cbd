package toolsearch

import (
	"slices"
	"testing"
)

func TestTerms(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"read_file", []string{"read", "file"}},
		{"readFile", []string{"read", "file"}},
		{"ReadFile", []string{"read", "file"}},
		{"read-file", []string{"read", "file"}},
		{"READ_FILE", []string{"read", "file"}},
		{"HTTPServer", []string{"http", "server"}},
		{"getHTTPResponseCode", []string{"get", "http", "respons", "code"}},
		{"utf8Decode", []string{"utf8", "decod"}},
		{"s3.put_object", []string{"s3", "put", "object"}},
		{"  Search,  the   web! ", []string{"search", "the", "web"}},
		{"Größe ändern", []string{"größe", "ändern"}},
		{"", nil},
		{"--", nil},
	}
	for _, tt := range tests {
		if got := terms(tt.in, nil); !slices.Equal(got, tt.want) {
			t.Errorf("terms(%q) mismatch: want %q, got %q", tt.in, tt.want, got)
		}
	}
}

func TestStem(t *testing.T) {
	tests := map[string]string{
		// the forms of a word meet
		"search": "search", "searches": "search", "searching": "search", "searched": "search",
		"file": "file", "files": "file",
		"create": "creat", "created": "creat", "creating": "creat", "creates": "creat",
		"write": "writ", "writing": "writ", "writes": "writ",
		"running": "run", "runs": "run",
		"pulling": "pull", "pulled": "pull",
		"entries": "entry", "entry": "entry",
		"boxes": "box", "addresses": "address", "address": "address",
		"image": "imag", "images": "imag",
		// left alone
		"status": "status", "analysis": "analysis", "string": "string", "need": "need",
		"speed": "speed", "run": "run", "go": "go", "s3": "s3", "größe": "größe",
	}
	for in, want := range tests {
		if got := stem(in); got != want {
			t.Errorf("stem(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestQueryTerms(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"read a file from the disk", []string{"read", "file", "disk"}},
		{"which tool lists the branches", []string{"list", "branch"}},
		{"the", []string{"the"}}, // nothing else left
		{"how to", []string{"how", "to"}},
	}
	for _, tt := range tests {
		if got := queryTerms(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("queryTerms(%q) mismatch: want %q, got %q", tt.in, tt.want, got)
		}
	}
	long := ""
	for range 2 * MaxTerms {
		long += "word "
	}
	if got := len(queryTerms(long)); got != MaxTerms {
		t.Errorf("queryTerms of %d words kept %d terms, want %d", 2*MaxTerms, got, MaxTerms)
	}
}
