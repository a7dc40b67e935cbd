package mcpserver

import (
	"bytes"
	"testing"
)

// FuzzDecodeArgs: tools/call arguments from a client decode to a map or an
// error, never a panic or a nil map.
func FuzzDecodeArgs(f *testing.F) {
	for _, s := range []string{`{"a":1}`, ``, `null`, ` [1] `, `{"a":`, `"x"`, `{"a":{"b":[null,true,1e400]}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		args, err := decodeArgs(raw)
		if err == nil && args == nil {
			t.Fatalf("decodeArgs(%q) = nil map, nil error", raw)
		}
	})
}

// FuzzRequestState: a requestState a client sends back is accepted only
// when the server signed it; whatever the client sends, the only payload
// that passes is the one signed.
func FuzzRequestState(f *testing.F) {
	s := &Server{key: newKey()}
	payload := []byte(`{"tool":"t","args":"h","answers":{"a":true}}`)
	good := s.sign(payload)
	f.Add(good)
	f.Add("")
	f.Add(".")
	f.Add(good + "x")
	f.Add("e30." + good[len(good)-43:])
	f.Fuzz(func(t *testing.T, state string) {
		got, ok := s.verify(state)
		if ok && !bytes.Equal(got, payload) {
			t.Fatalf("verify(%q) accepted a payload the server never signed: %q", state, got)
		}
	})
}
