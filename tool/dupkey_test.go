package tool

import (
	"errors"
	"testing"

	"github.com/toolhost/toolhost/internal/dupkey"
)

// outputDecoders are the readers of what a tool binary prints (and of a
// request, for a binary), each as a function of the bytes.
var outputDecoders = map[string]func([]byte) error{
	"DecodeOutcome":        func(b []byte) error { _, err := DecodeOutcome(b); return err },
	"DecodeOutcomeV2":      func(b []byte) error { _, err := DecodeOutcomeV2(b); return err },
	"DecodeSchemaResponse": func(b []byte) error { _, err := DecodeSchemaResponse(b); return err },
	"DecodeEvent":          func(b []byte) error { _, err := DecodeEvent(b); return err },
	"DecodeStream":         func(b []byte) error { _, _, err := DecodeStream(b); return err },
	"DecodeTagged":         func(b []byte) error { _, err := DecodeTagged(b); return err },
	"DecodeRequest":        func(b []byte) error { _, err := DecodeRequest(b); return err },
}

// TestDuplicateKeys: a tool's answer holding a key twice is refused by
// every decoder with an error naming the key and where it is, at the top
// or inside.
func TestDuplicateKeys(t *testing.T) {
	tests := []struct {
		decoder, in, want string
	}{
		{"DecodeOutcome", `{"type":"success","content":"a","content":"b"}`, `not an outcome: duplicate key "content"`},
		{"DecodeOutcome", `{"type":"error","message":"x","type":"success","content":"ok"}`, `not an outcome: duplicate key "type"`},
		{"DecodeOutcome", `{"type":"needs_input","question":{"id":"a","id":"b","text":"?","answer_type":"Boolean"}}`, `not an outcome: duplicate key "id" in /question`},
		{"DecodeOutcomeV2", `{"type":"success","content":"a","content":"b"}`, `not an outcome: duplicate key "content"`},
		{"DecodeOutcomeV2", `{"type":"success","structured":{"n":1,"n":2}}`, `not an outcome: duplicate key "n" in /structured`},
		{"DecodeOutcomeV2", `{"type":"success","content":"caf\u00e9","unknown":1,"unknown":2}`, `not an outcome: duplicate key "unknown"`},
		{"DecodeSchemaResponse", `{"tools":[{"name":"echo","name":"nested"}]}`, `not a schema response: duplicate key "name" in /tools/0`},
		{"DecodeSchemaResponse", `{"tools":[{"name":"a","parameters":{"p":{},"p":{"type":"string"}}}]}`, `not a schema response: duplicate key "p" in /tools/0/parameters`},
		{"DecodeSchemaResponse", `{"tools":[],"tools":[{"name":"x"}]}`, `not a schema response: duplicate key "tools"`},
		{"DecodeEvent", `{"type":"log","message":"a","message":"b"}`, `not an event: duplicate key "message"`},
		{"DecodeStream", "{\"type\":\"progress\",\"progress\":1,\"progress\":2}\n{\"type\":\"success\",\"content\":\"x\"}", `stdout line 1: not an event: duplicate key "progress"`},
		{"DecodeStream", "{\"type\":\"success\",\"content\":\"x\",\"type\":\"error\"}", `stdout line 1: not an outcome: duplicate key "type"`},
		{"DecodeTagged", `{"id":"1","id":"2","outcome":{"type":"success","content":"x"}}`, `not a tagged line: duplicate key "id"`},
		{"DecodeTagged", `{"id":"1","outcome":{"type":"success","content":"x","content":"y"}}`, `not a tagged line: duplicate key "content" in /outcome`},
		{"DecodeRequest", `{"protocol":"1","context":{"action":"run","action":"schema"}}`, `malformed request: duplicate key "action" in /context`},
	}
	for _, tc := range tests {
		err := outputDecoders[tc.decoder]([]byte(tc.in))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s(%s) = %v, want %q", tc.decoder, tc.in, err, tc.want)
		}
	}
	// The sentinels still hold, and the key can be read from the error.
	_, err := DecodeOutcome([]byte(`{"type":"success","content":"a","content":"b"}`))
	var dup *dupkey.Error
	if !errors.Is(err, errNotOutcome) || !errors.As(err, &dup) || dup.Key != "content" {
		t.Errorf("DecodeOutcome error %v: want errNotOutcome and a *dupkey.Error for content", err)
	}
	_, err = DecodeSchemaResponse([]byte(`{"tools":[],"tools":[]}`))
	if !errors.Is(err, ErrNotSchema) || !errors.As(err, &dup) || dup.Key != "tools" {
		t.Errorf("DecodeSchemaResponse error %v: want ErrNotSchema and a *dupkey.Error for tools", err)
	}
}

// FuzzDuplicateKeys: no decoder of a tool's output accepts a document
// holding a key twice.
func FuzzDuplicateKeys(f *testing.F) {
	for _, s := range []string{
		`{"type":"success","content":"a","content":"b"}`, `{"tools":[{"name":"echo","name":"nested"}]}`,
		`{"type":"log","message":"a","message":"b"}`, `{"id":"1","outcome":{"type":"success","content":"x","content":"y"}}`,
		`{"type":"success","structured":{"a":{"b":[{"c":1,"c":2}]}}}`, `{"type":"success","content":"x"}`, `{"tools":[]}`,
		`{"protocol":"1","context":{"action":"run","root":"/","root":"/etc"}}`, `{"type":"success","content":"x","\u0063ontent":"y"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if dupkey.Check(data) == nil {
			return
		}
		for name, decode := range outputDecoders {
			if err := decode(data); err == nil {
				t.Fatalf("%s accepted %q, which holds a key twice (%v)", name, data, dupkey.Check(data))
			}
		}
	})
}
