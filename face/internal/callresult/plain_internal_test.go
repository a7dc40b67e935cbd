package callresult

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// answers are MCP answers as internal/source/servers keeps them, plain or not.
var answers = []struct {
	name, data string
	plain      bool
}{
	{"text", `{"content":[{"type":"text","text":"A.TXT"}]}`, true},
	{"texts", `{"content":[{"type":"text","text":"a"},{"type":"text","text":"b\n\u00e9\"c\""}]}`, true},
	{"no content", `{"content":[]}`, true},
	{"content null", `{"content":null}`, true},
	{"content absent", `{"isError":true}`, true},
	{"error", `{"content":[{"type":"text","text":"boom"}],"isError":true}`, true},
	{"structured", `{"content":[{"type":"text","text":"{\"n\":1}"}],"structuredContent":{"n":1,"list":[1.5,"x",null,true],"o":{}}}`, true},
	{"structured null", `{"content":[],"structuredContent":null}`, true},
	{"_meta", `{"_meta":{"k":"v"},"content":[{"type":"text","text":"a"}]}`, false},
	{"image", `{"content":[{"type":"image","data":"AAAA","mimeType":"image/png"}]}`, false},
	{"annotated text", `{"content":[{"type":"text","text":"a","annotations":{"priority":1}}]}`, false},
	{"text without text", `{"content":[{"type":"text","x":"a"}]}`, false},
	{"text not a string", `{"content":[{"type":"text","text":5}]}`, false},
	{"isError not a bool", `{"content":[],"isError":"yes"}`, false},
	{"resultType", `{"content":[],"resultType":"complete"}`, false},
	{"not an object", `[1]`, false},
	{"null", `null`, false},
	{"broken", `{"content":[`, false},
}

// TestPlainAnswer: a plain answer decodes as CallToolResult's own
// decoder decodes it; anything else is left to that decoder.
func TestPlainAnswer(t *testing.T) {
	for _, tt := range answers {
		t.Run(tt.name, func(t *testing.T) {
			if _, ok := plainAnswer([]byte(tt.data)); ok != tt.plain {
				t.Fatalf("plainAnswer ok = %v, want %v", ok, tt.plain)
			} else if ok {
				checkAnswer(t, []byte(tt.data))
			}
		})
	}
}

// FuzzPlainAnswer: any answer read as plain is what CallToolResult's own
// decoder reads.
func FuzzPlainAnswer(f *testing.F) {
	for _, tt := range answers {
		f.Add([]byte(tt.data))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if _, ok := plainAnswer(data); ok {
			checkAnswer(t, data)
		}
	})
}

func checkAnswer(t *testing.T, data []byte) {
	t.Helper()
	got, _ := plainAnswer(data)
	var want mcp.CallToolResult
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatalf("plainAnswer(%q) is plain, but the go-sdk refuses it: %v", data, err)
	}
	if !reflect.DeepEqual(got, &want) {
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(&want)
		t.Fatalf("plainAnswer(%q) = %s, the go-sdk decodes %s", data, g, w)
	}
}
