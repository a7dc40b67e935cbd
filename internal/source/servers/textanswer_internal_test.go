package servers

import (
	"encoding/json"
	"testing"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestTextAnswer checks that textAnswer encodes as json.Marshal does,
// and that it leaves every other shape to json.Marshal.
func TestTextAnswer(t *testing.T) {
	text := func(s string) *mcpsdk.TextContent { return &mcpsdk.TextContent{Text: s} }
	cases := []struct {
		name string
		res  *mcpsdk.CallToolResult
		want string // "" when textAnswer leaves it to json.Marshal
	}{
		{"one block", &mcpsdk.CallToolResult{Content: []mcpsdk.Content{text("A.TXT")}},
			`{"content":[{"type":"text","text":"A.TXT"}]}`},
		{"no blocks", &mcpsdk.CallToolResult{Content: []mcpsdk.Content{}}, `{"content":[]}`},
		{"error", &mcpsdk.CallToolResult{Content: []mcpsdk.Content{text("no")}, IsError: true},
			`{"content":[{"type":"text","text":"no"}],"isError":true}`},
		{"escapes", &mcpsdk.CallToolResult{Content: []mcpsdk.Content{text("<a href=\"x\">&\u2028\t\x01\xff</a>"), text("")}},
			`{"content":[{"type":"text","text":"\u003ca href=\"x\"\u003e\u0026\u2028\t\u0001\ufffd\u003c/a\u003e"},{"type":"text","text":""}]}`},
		{"meta", &mcpsdk.CallToolResult{Meta: mcpsdk.Meta{"k": "v"}, Content: []mcpsdk.Content{text("a")}}, ""},
		{"structured", &mcpsdk.CallToolResult{Content: []mcpsdk.Content{text("a")}, StructuredContent: map[string]any{"a": 1}}, ""},
		{"block meta", &mcpsdk.CallToolResult{Content: []mcpsdk.Content{&mcpsdk.TextContent{Text: "a", Meta: mcpsdk.Meta{"k": "v"}}}}, ""},
		{"annotations", &mcpsdk.CallToolResult{Content: []mcpsdk.Content{&mcpsdk.TextContent{Text: "a", Annotations: &mcpsdk.Annotations{Priority: 1}}}}, ""},
		{"image", &mcpsdk.CallToolResult{Content: []mcpsdk.Content{text("a"), &mcpsdk.ImageContent{Data: []byte{1}, MIMEType: "image/png"}}}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := textAnswer(c.res)
			if c.want == "" {
				if ok {
					t.Fatalf("textAnswer = %s, want it left to json.Marshal", got)
				}
				return
			}
			if !ok || string(got) != c.want {
				t.Fatalf("textAnswer = %s, %v; want %s", got, ok, c.want)
			}
			whole, err := json.Marshal(c.res)
			if err != nil || string(whole) != c.want {
				t.Fatalf("json.Marshal = %s, %v; want %s", whole, err, c.want)
			}
		})
	}
}

// FuzzTextAnswer compares textAnswer with json.Marshal on any texts.
func FuzzTextAnswer(f *testing.F) {
	f.Add("A.TXT", "", false)
	f.Add("<&>\u2028\u2029", "\xff\xfe", true)
	f.Fuzz(func(t *testing.T, a, b string, isError bool) {
		res := &mcpsdk.CallToolResult{Content: []mcpsdk.Content{&mcpsdk.TextContent{Text: a}, &mcpsdk.TextContent{Text: b}}, IsError: isError}
		got, ok := textAnswer(res)
		want, err := json.Marshal(res)
		if !ok || err != nil || string(got) != string(want) {
			t.Fatalf("textAnswer = %s, %v; json.Marshal = %s, %v", got, ok, want, err)
		}
	})
}
