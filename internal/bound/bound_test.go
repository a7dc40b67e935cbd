package bound

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestResult(t *testing.T) {
	text := func(s string) *mcp.TextContent { return &mcp.TextContent{Text: s} }
	img := &mcp.ImageContent{Data: make([]byte, 2000), MIMEType: "image/png"}
	accented := "a" + strings.Repeat("é", 600) // 1201 bytes; byte 512 is inside an é
	tests := []struct {
		name    string
		res     *mcp.CallToolResult
		max     int
		content []string // the text of each block kept, "image" for an image, "link URI" for a link
		meta    string   // the JSON of the _meta kept; "" none
		// blockMeta: the first block keeps its _meta
		blockMeta bool
		cut       *Cut
	}{
		{name: "fits", res: &mcp.CallToolResult{Content: []mcp.Content{text("hello"), img}}, max: 2005,
			content: []string{"hello", "image"}},
		{name: "text cut at a character", res: &mcp.CallToolResult{Content: []mcp.Content{text(accented)}}, max: 1024,
			content: []string{accented[:511], "[toolhost: this result was cut to its first 511 B of 1.2 KiB (the bound is 1 KiB): 690 B left out. The whole result is the resource toolhost://result/x (resources/read).]", "link toolhost://result/x"},
			cut:     &Cut{Total: 1201, Kept: 511, URI: "toolhost://result/x"}},
		{name: "a bound below the least is raised to it", res: &mcp.CallToolResult{Content: []mcp.Content{text(accented)}}, max: 3,
			content: []string{accented[:511], "[toolhost: this result was cut to its first 511 B of 1.2 KiB (the bound is 1 KiB): 690 B left out. The whole result is the resource toolhost://result/x (resources/read).]", "link toolhost://result/x"},
			cut:     &Cut{Total: 1201, Kept: 511, URI: "toolhost://result/x"}},
		{name: "image left out, text after it kept", res: &mcp.CallToolResult{Content: []mcp.Content{text("0123456789"), img, text("end")}}, max: 1024,
			content: []string{"0123456789", "end", "[toolhost: this result was cut to its first 13 B of 2 KiB (the bound is 1 KiB): 2 KiB left out, 1 whole block among it. The whole result is the resource toolhost://result/x (resources/read).]", "link toolhost://result/x"},
			cut:     &Cut{Total: 2013, Kept: 13, Dropped: 1, URI: "toolhost://result/x"}},
		{name: "structured left out", res: &mcp.CallToolResult{Content: []mcp.Content{text("ok")}, StructuredContent: map[string]any{"big": strings.Repeat("x", 1100)}}, max: 1024,
			content: []string{"ok", "[toolhost: this result was cut to its first 2 B of 1.1 KiB (the bound is 1 KiB): 1.1 KiB left out, the structured content among it. The whole result is the resource toolhost://result/x (resources/read).]", "link toolhost://result/x"},
			cut:     &Cut{Total: 1112, Kept: 2, Struct: true, URI: "toolhost://result/x"}},
		{name: "small _meta kept whole beside cut text", res: &mcp.CallToolResult{Content: []mcp.Content{text(strings.Repeat("a", 2000))}, Meta: mcp.Meta{"k": "v"}}, max: 1024,
			content: []string{strings.Repeat("a", 503), "[toolhost: this result was cut to its first 512 B of 2 KiB (the bound is 1 KiB): 1.5 KiB left out. The whole result is the resource toolhost://result/x (resources/read).]", "link toolhost://result/x"},
			meta:    `{"k":"v"}`,
			cut:     &Cut{Total: 2009, Kept: 512, URI: "toolhost://result/x"}},
		{name: "big _meta: its keys for MCP Apps kept", res: &mcp.CallToolResult{Content: []mcp.Content{text("ok")},
			Meta: mcp.Meta{"ui": map[string]any{"resourceUri": "ui://w/v.html"}, "ui/resourceUri": "ui://w/v.html", "junk": strings.Repeat("x", 2000)}}, max: 1024,
			content: []string{"ok", "[toolhost: this result was cut to its first 73 B of 2 KiB (the bound is 1 KiB): 2 KiB left out, the _meta but its keys for MCP Apps among it. The whole result is the resource toolhost://result/x (resources/read).]", "link toolhost://result/x"},
			meta:    `{"ui":{"resourceUri":"ui://w/v.html"},"ui/resourceUri":"ui://w/v.html"}`,
			cut:     &Cut{Total: 2083, Kept: 73, Meta: true, AppMeta: true, URI: "toolhost://result/x"}},
		{name: "big _meta without keys for MCP Apps left out", res: &mcp.CallToolResult{Content: []mcp.Content{text("ok")}, Meta: mcp.Meta{"junk": strings.Repeat("x", 2000)}}, max: 1024,
			content: []string{"ok", "[toolhost: this result was cut to its first 2 B of 2 KiB (the bound is 1 KiB): 2 KiB left out, the _meta among it. The whole result is the resource toolhost://result/x (resources/read).]", "link toolhost://result/x"},
			cut:     &Cut{Total: 2013, Kept: 2, Meta: true, URI: "toolhost://result/x"}},
		{name: "keys for MCP Apps over a quarter of the bound left out", res: &mcp.CallToolResult{Content: []mcp.Content{text("ok")}, Meta: mcp.Meta{"ui": strings.Repeat("u", 1100)}}, max: 1024,
			content: []string{"ok", "[toolhost: this result was cut to its first 2 B of 1.1 KiB (the bound is 1 KiB): 1.1 KiB left out, the _meta among it. The whole result is the resource toolhost://result/x (resources/read).]", "link toolhost://result/x"},
			cut:     &Cut{Total: 1111, Kept: 2, Meta: true, URI: "toolhost://result/x"}},
		{name: "a block's _meta counts", res: &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "hi", Meta: mcp.Meta{"junk": strings.Repeat("x", 2000)}}}}, max: 1024,
			content: []string{"hi", "[toolhost: this result was cut to its first 2 B of 2 KiB (the bound is 1 KiB): 2 KiB left out. The whole result is the resource toolhost://result/x (resources/read).]", "link toolhost://result/x"},
			cut:     &Cut{Total: 2013, Kept: 2, URI: "toolhost://result/x"}},
		{name: "a block's annotations count", res: &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "hi", Annotations: &mcp.Annotations{Audience: slices.Repeat([]mcp.Role{"user"}, 200)}}}}, max: 1024,
			content: []string{"hi", "[toolhost: this result was cut to its first 2 B of 1.4 KiB (the bound is 1 KiB): 1.4 KiB left out. The whole result is the resource toolhost://result/x (resources/read).]", "link toolhost://result/x"},
			cut:     &Cut{Total: 1416, Kept: 2, URI: "toolhost://result/x"}},
		{name: "a cut text keeps its small _meta", res: &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Repeat("a", 2000), Meta: mcp.Meta{"k": "v"}}}}, max: 1024,
			content:   []string{strings.Repeat("a", 503), "[toolhost: this result was cut to its first 512 B of 2 KiB (the bound is 1 KiB): 1.5 KiB left out. The whole result is the resource toolhost://result/x (resources/read).]", "link toolhost://result/x"},
			blockMeta: true,
			cut:       &Cut{Total: 2009, Kept: 512, URI: "toolhost://result/x"}},
		{name: "raw structured counted by its bytes", res: &mcp.CallToolResult{StructuredContent: json.RawMessage(`"` + strings.Repeat("y", 1100) + `"`)}, max: 1024,
			content: []string{"[toolhost: this result was cut to its first 0 B of 1.1 KiB (the bound is 1 KiB): 1.1 KiB left out, the structured content among it. The whole result is the resource toolhost://result/x (resources/read).]", "link toolhost://result/x"},
			cut:     &Cut{Total: 1102, Struct: true, URI: "toolhost://result/x"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var kept []byte
			out, cut := Result(tt.res, tt.max, func(whole []byte) (string, error) { kept = whole; return "toolhost://result/x", nil })
			var got []string
			sent := 0
			for _, c := range out.Content {
				sent += size(c)
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
			if out.StructuredContent != nil {
				sent += jsonSize(out.StructuredContent)
			}
			gotMeta := ""
			if out.Meta != nil {
				sent += jsonSize(out.Meta)
				gotMeta = string(must(json.Marshal(out.Meta)))
			}
			if gotMeta != tt.meta {
				t.Errorf("_meta kept %s, want %s", gotMeta, tt.meta)
			}
			if got := out.Content[0].(*mcp.TextContent).Meta != nil; got != tt.blockMeta {
				t.Errorf("the first block kept its _meta: %v, want %v", got, tt.blockMeta)
			}
			if bound := max(tt.max, MinMax); sent > bound {
				t.Errorf("sent %d bytes, note and link included; the bound is %d", sent, bound)
			}
			want, _ := json.Marshal(tt.res)
			if string(kept) != string(want) {
				t.Errorf("kept %s, want the whole result %s", kept, want)
			}
			if link := out.Content[len(out.Content)-1].(*mcp.ResourceLink); link.Size == nil || *link.Size != int64(len(want)) {
				t.Errorf("the link's size = %v, want the kept file's %d", link.Size, len(want))
			}
			if tt.res.StructuredContent != nil && (out.StructuredContent != nil) == tt.cut.Struct {
				t.Errorf("structured content kept: %v", out.StructuredContent)
			}
		})
	}
}

// TestResultKeepsTheRest: a cut result keeps what is not its content:
// isError, _meta, and the fields of a multi round-trip answer.
func TestResultKeepsTheRest(t *testing.T) {
	res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Repeat("a", 2000)}}, IsError: true,
		Meta: mcp.Meta{"k": "v"}, RequestState: "state", InputRequests: mcp.InputRequestMap{"q": &mcp.ElicitParams{Message: "?"}}}
	out, cut := Result(res, 1024, nil)
	if cut == nil || !out.IsError || out.Meta["k"] != "v" || out.RequestState != "state" || out.InputRequests["q"] == nil {
		t.Errorf("cut %+v: result %+v lost what is not its content", cut, out)
	}
	if len(res.Content) != 1 || len(res.Content[0].(*mcp.TextContent).Text) != 2000 {
		t.Error("Result modified the result it was given")
	}
}

func TestResultKeepFails(t *testing.T) {
	res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Repeat("a", DefaultMax+1)}}}
	out, cut := Result(res, 0, func([]byte) (string, error) { return "", errors.New("disk full") })
	if cut == nil || cut.URI != "" || len(out.Content) != 2 {
		t.Fatalf("cut %+v, %d blocks; want the text cut to the default bound and a note, no link", cut, len(out.Content))
	}
	if got := out.Content[1].(*mcp.TextContent).Text; got != "[toolhost: this result was cut to its first 255.5 KiB of 256 KiB (the bound is 256 KiB): 513 B left out.]" {
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

func must(data []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return data
}

func utf8ValidString(s string) bool { return strings.ToValidUTF8(s, "\uFFFD") == s }

// BenchmarkResultFits is the cost of the bound on a call whose result
// fits, a typical one of 2 KiB of text: the result is returned as it is.
func BenchmarkResultFits(b *testing.B) {
	res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Repeat("result line\n", 170)}}}
	for b.Loop() {
		if out, cut := Result(res, 0, nil); out != res || cut != nil {
			b.Fatal("cut")
		}
	}
}

// BenchmarkResultFitsStructured is BenchmarkResultFits with a structured
// value beside the text, as a protocol v2 tool answers.
func BenchmarkResultFitsStructured(b *testing.B) {
	rows := make([]any, 20)
	for i := range rows {
		rows[i] = map[string]any{"name": "row", "size": json.Number("1024"), "ok": true}
	}
	res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Repeat("result line\n", 100)}},
		StructuredContent: map[string]any{"rows": rows}}
	for b.Loop() {
		if out, cut := Result(res, 0, nil); out != res || cut != nil {
			b.Fatal("cut")
		}
	}
}

// FuzzUpperSize: for any JSON value, decoded as the faces decode one,
// upperSize is never below the size of its JSON.
func FuzzUpperSize(f *testing.F) {
	f.Add([]byte(`{"a":[1,2.5,"x<y\u0001é",null,true,{"b":{}}]}`))
	f.Add([]byte(`"\u2028\ud800"`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var v any
		if json.Unmarshal(data, &v) != nil {
			return
		}
		exact := jsonSize(v)
		if n, ok := upperSize(v, exact+1<<20); !ok || n < exact {
			t.Fatalf("upperSize(%s) = %d, %v; its JSON is %d bytes", data, n, ok, exact)
		}
	})
}

// FuzzRead: a URI from a client is outside input. Read never panics, and
// reads nothing but a result the store kept.
func FuzzRead(f *testing.F) {
	dir := f.TempDir()
	s := &Store{Dir: filepath.Join(dir, "results")}
	uri, err := s.Put([]byte(`{}`))
	if err != nil {
		f.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "secret.json"), []byte(`secret`), 0o600)
	f.Add(uri)
	f.Add(URIPrefix + "../secret")
	f.Add(URIPrefix + strings.Repeat("0", 32))
	f.Fuzz(func(t *testing.T, u string) {
		data, err := s.Read(u)
		if u == uri {
			if err != nil || string(data) != `{}` {
				t.Fatalf("Read(%q) = %q, %v", u, data, err)
			}
			return
		}
		if !errors.Is(err, ErrNotKept) || data != nil {
			t.Fatalf("Read(%q) = %q, %v; want ErrNotKept", u, data, err)
		}
	})
}

// TestResultBlockFlood: a result of many empty blocks, which count no
// bytes, keeps MaxBlocks of them.
func TestResultBlockFlood(t *testing.T) {
	res := &mcp.CallToolResult{}
	for range 600000 {
		res.Content = append(res.Content, &mcp.TextContent{})
	}
	out, cut := Result(res, 0, nil)
	if cut == nil || len(out.Content) != MaxBlocks+1 || cut.Dropped != 600000-MaxBlocks {
		t.Fatalf("cut %+v, %d blocks; want %d blocks and the note", cut, len(out.Content), MaxBlocks)
	}
	if got := out.Content[MaxBlocks].(*mcp.TextContent).Text; got != "[toolhost: this result was cut to its first 1000 blocks: 599000 more left out.]" {
		t.Errorf("note = %s", got)
	}
}

// TestResultExactTotals: a result cut for its blocks alone counts its
// structured content exactly, and a text of which no whole character
// fits is left out, not sent empty.
func TestResultExactTotals(t *testing.T) {
	res := &mcp.CallToolResult{StructuredContent: map[string]any{"a": "b"}}
	for range MaxBlocks + 1 {
		res.Content = append(res.Content, &mcp.TextContent{})
	}
	if _, cut := Result(res, 0, nil); cut == nil || cut.Total != len(`{"a":"b"}`) || cut.Kept != cut.Total || cut.Dropped != 1 {
		t.Errorf("cut %+v; want a total of 9 bytes, all kept, 1 block left out", cut)
	}
	res = &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Repeat("a", 1024-512-1)}, &mcp.TextContent{Text: strings.Repeat("é", 300)}}}
	out, cut := Result(res, 1024, nil)
	if cut == nil || len(out.Content) != 2 || cut.Dropped != 1 {
		t.Errorf("cut %+v, %d blocks; want the a's, the note, and the é's left out whole", cut, len(out.Content))
	}
}

// TestStoreNowhereReadsNothing: a store without a directory, which keeps
// nothing, reads nothing either: not a file of the working directory
// that a result's name names.
func TestStoreNowhereReadsNothing(t *testing.T) {
	t.Chdir(t.TempDir())
	name := strings.Repeat("0", 32)
	if err := os.WriteFile(name+".json", []byte(`{"secret":1}`), 0o600); err != nil {
		t.Fatal(err)
	}
	s := &Store{}
	if data, err := s.Read(URIPrefix + name); !errors.Is(err, ErrNotKept) {
		t.Errorf("Read = %s, %v; want ErrNotKept", data, err)
	}
}

// FuzzResult: any result a server may send, bounded to any bound, never
// panics, and what is sent (its blocks, structured content and _meta, the
// note and link included) fits in the bound, counted as the bound counts.
func FuzzResult(f *testing.F) {
	f.Add([]byte(`{"content":[{"type":"text","text":"hi","_meta":{"k":"`+strings.Repeat("x", 3000)+`"}}],"_meta":{"ui":{"resourceUri":"ui://a"},"j":"`+strings.Repeat("y", 900)+`"}}`), 1024)
	f.Add([]byte(`{"content":[{"type":"text","text":"`+strings.Repeat("é", 700)+`","annotations":{"audience":["user","user"]}}],"structuredContent":{"a":[1,2,3]}}`), 0)
	f.Add([]byte(`{"content":[{"type":"image","data":"AAAA","mimeType":"image/png","_meta":{"a":1}},{"type":"resource_link","uri":"x:y","name":"n","icons":[{"src":"data:,`+strings.Repeat("z", 2000)+`"}]}]}`), 1500)
	f.Fuzz(func(t *testing.T, data []byte, max int) {
		var res mcp.CallToolResult
		if json.Unmarshal(data, &res) != nil {
			return
		}
		max %= 1 << 16
		out, cut := Result(&res, max, func([]byte) (string, error) { return URIPrefix + strings.Repeat("0", 32), nil })
		if cut == nil {
			if out != &res {
				t.Fatal("a result that fits is not returned as it is")
			}
			return
		}
		sent := 0
		for _, c := range out.Content {
			sent += size(c)
		}
		if out.StructuredContent != nil {
			sent += jsonSize(out.StructuredContent)
		}
		if out.Meta != nil {
			sent += jsonSize(out.Meta)
		}
		bound := max
		switch {
		case bound <= 0:
			bound = DefaultMax
		case bound < MinMax:
			bound = MinMax
		}
		if sent > bound || len(out.Content) > MaxBlocks+2 {
			t.Fatalf("sent %d bytes in %d blocks, over the bound %d", sent, len(out.Content), bound)
		}
		if cut.Kept > cut.Total {
			t.Fatalf("cut %+v: kept more than the whole", cut)
		}
	})
}
