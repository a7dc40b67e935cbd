package mcpserver

import (
	"bytes"
	"testing"
)

// FuzzRequestState: a requestState a client sends back is accepted only
// when the server sealed it; whatever the client sends, the only payload
// that opens is the one sealed.
func FuzzRequestState(f *testing.F) {
	s := &Server{key: newKey()}
	payload := []byte(`{"tool":"t","args":"h","answers":{"a":true}}`)
	good := s.seal(payload)
	f.Add(good)
	f.Add("")
	f.Add(".")
	f.Add(good + "x")
	f.Add(good[:len(good)-2])
	f.Add("e30")
	f.Fuzz(func(t *testing.T, state string) {
		got, ok := s.open(state)
		if ok && !bytes.Equal(got, payload) {
			t.Fatalf("open(%q) accepted a payload the server never sealed: %q", state, got)
		}
	})
}
