package bound

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestResult(t *testing.T) {
	text := func(s string) *mcp.TextContent { return &mcp.TextContent{Text: s} }
	img := &mcp.ImageContent{Data: make([]byte, 40), MIMEType: "image/png"}
	tests := []struct {
		name    string
		res     *mcp.CallToolResult
		max     int
		content []string // the text of each block kept, "image" for an image, "link URI" for a link
		cut     *Cut
		structd bool
	}{
		{name: "fits", res: &mcp.CallToolResult{Content: []mcp.Content{text("hello"), img}}, max: 45,
			content: []string{"hello", "image"}},
		{name: "text cut at a character", res: &mcp.CallToolResult{Content: []mcp.Content{text("héllo wörld")}}, max: 3,
			content: []string{"h\xc3\xa9", "[toolhost: this result was cut to its first 3 B of 13 B (the bound is 3 B): 10 B left out. The whole result is the resource toolhost://result/x (resources/read).]", "link toolhost://result/x"},
			cut:     &Cut{Total: 13, Kept: 3, URI: "toolhost://result/x"}},
		{name: "image left out, text after it kept", res: &mcp.CallToolResult{Content: []mcp.Content{text("0123456789"), img, text("end")}}, max: 20,
			content: []string{"0123456789", "end", "[toolhost: this result was cut to its first 13 B of 53 B (the bound is 20 B): 40 B left out, 1 whole block among it. The whole result is the resource toolhost://result/x (resources/read).]", "link toolhost://result/x"},
			cut:     &Cut{Total: 53, Kept: 13, Dropped: 1, URI: "toolhost://result/x"}},
		{name: "structured left out", res: &mcp.CallToolResult{Content: []mcp.Content{text("ok")}, StructuredContent: map[string]any{"big": strings.Repeat("x", 30)}}, max: 20,
			content: []string{"ok", "[toolhost: this result was cut to its first 2 B of 42 B (the bound is 20 B): 40 B left out, the structured content among it. The whole result is the resource toolhost://result/x (resources/read).]", "link toolhost://result/x"},
			cut:     &Cut{Total: 42, Kept: 2, Struct: true, URI: "toolhost://result/x"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var kept []byte
			out, cut := Result(tt.res, tt.max, func(whole []byte) (string, error) { kept = whole; return "toolhost://result/x", nil })
			var got []string
			for _, c := range out.Content {
				switch c := c.(type) {
				case *mcp.TextContent:
					got = append(got, c.Text)
				case *mcp.ImageContent:
					got = append(got, "image")
				case *mcp.ResourceLink:
					got = append(got, "link "+c.URI)
				}
			}
			if strings.Join(got, "\n") != strings.Join(tt.content, "\n") {
				t.Errorf("content:\n%q\nwant:\n%q", got, tt.content)
			}
			if (cut == nil) != (tt.cut == nil) || cut != nil && *cut != *tt.cut {
				t.Errorf("cut = %+v, want %+v", cut, tt.cut)
			}
			if tt.cut == nil {
				if out != tt.res || kept != nil {
					t.Error("a result that fits is returned as it is, and not kept")
				}
				return
			}
			want, _ := json.Marshal(tt.res)
			if string(kept) != string(want) {
				t.Errorf("kept %s, want the whole result %s", kept, want)
			}
			if tt.res.StructuredContent != nil && (out.StructuredContent != nil) == tt.cut.Struct {
				t.Errorf("structured content kept: %v", out.StructuredContent)
			}
		})
	}
}

func TestResultKeepFails(t *testing.T) {
	res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Repeat("a", DefaultMax+1)}}}
	out, cut := Result(res, 0, func([]byte) (string, error) { return "", errors.New("disk full") })
	if cut == nil || cut.URI != "" || len(out.Content) != 2 {
		t.Fatalf("cut %+v, %d blocks; want the text cut to the default bound and a note, no link", cut, len(out.Content))
	}
	if got := out.Content[1].(*mcp.TextContent).Text; got != "[toolhost: this result was cut to its first 256 KiB of 256.0 KiB (the bound is 256 KiB): 1 B left out.]" {
		t.Errorf("note = %s", got)
	}
}

func TestStore(t *testing.T) {
	s := &Store{Dir: filepath.Join(t.TempDir(), "results"), Keep: time.Hour}
	uri, err := s.Put([]byte(`{"content":[]}`))
	if err != nil || !strings.HasPrefix(uri, URIPrefix) {
		t.Fatalf("Put = %q, %v", uri, err)
	}
	file := filepath.Join(s.Dir, strings.TrimPrefix(uri, URIPrefix)+".json")
	if info, err := os.Stat(file); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("the kept file: %v, %v; want mode 0600", info, err)
	}
	if data, err := s.Read(uri); err != nil || string(data) != `{"content":[]}` {
		t.Errorf("Read = %s, %v", data, err)
	}
	for _, bad := range []string{"toolhost://result/../../etc/passwd", "toolhost://result/" + strings.Repeat("g", 32), "file:///etc/passwd", URIPrefix + strings.Repeat("0", 32)} {
		if _, err := s.Read(bad); !errors.Is(err, ErrNotKept) {
			t.Errorf("Read(%q) = %v, want ErrNotKept", bad, err)
		}
	}
	old := time.Now().Add(-2 * time.Hour)
	os.Chtimes(file, old, old)
	if _, err := s.Read(uri); !errors.Is(err, ErrNotKept) {
		t.Errorf("Read of an expired result = %v, want ErrNotKept", err)
	}
	uri2, _ := s.Put([]byte(`{}`)) // sweeps the expired one
	if _, err := os.Stat(file); !os.IsNotExist(err) {
		t.Errorf("the expired result is still there: %v", err)
	}
	s.Close()
	if _, err := s.Read(uri2); !errors.Is(err, ErrNotKept) {
		t.Errorf("Read after Close = %v, want ErrNotKept", err)
	}
}

// FuzzPrefix: a cut text is valid UTF-8 whenever the text is, and never
// longer than asked.
func FuzzPrefix(f *testing.F) {
	f.Add("héllo wörld ✓", 4)
	f.Fuzz(func(t *testing.T, s string, n int) {
		if n < 0 || !utf8ValidString(s) {
			return
		}
		p := prefix(s, n)
		if len(p) > n && len(p) != len(s) || !strings.HasPrefix(s, p) || !utf8ValidString(p) {
			t.Fatalf("prefix(%q, %d) = %q", s, n, p)
		}
	})
}

func utf8ValidString(s string) bool { return strings.ToValidUTF8(s, "\uFFFD") == s }
