package mcpserver

import (
	"bytes"
	"testing"
)

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
