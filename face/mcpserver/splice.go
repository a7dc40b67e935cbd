package mcpserver

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"io"
	"strconv"
	"sync"
)

// splicer lets a stdio session write kept bytes, such as the tools/list
// result, without the SDK encoding them. The SDK's JSON-RPC layer marshals
// a result and then the whole message again. Each time it compacts and
// checks every byte. For 1000 tools that is two passes over 562 KiB, most
// of a tools/list. A result whose bytes are kept marshals to a small
// marker instead, {"toolhost.splice":"<nonce>-<n>"}. The session's writer
// ([lockedWriter]) writes the kept bytes in its place. The nonce is random
// per server. So no value a client or a tool sends can stand for a marker.
//
// # Trade-offs
//
// Only the sessions of [Server.Run] over stdio write through a
// lockedWriter, so only they splice. HTTP sessions encode as before. A
// marker whose message is never written, as when the session ended, keeps
// its bytes until the server goes.
type splicer struct {
	// fixed at creation
	prefix []byte // {"toolhost.splice":"<nonce>-

	mu      sync.Mutex
	next    uint64
	pending map[uint64]listBytes // guarded by mu
}

func newSplicer() *splicer {
	nonce := make([]byte, 16)
	rand.Read(nonce)
	return &splicer{
		prefix:  []byte(`{"toolhost.splice":"` + hex.EncodeToString(nonce) + `-`),
		pending: map[uint64]listBytes{},
	}
}

// marker returns the JSON that stands for raw until it is written.
func (sp *splicer) marker(raw listBytes) []byte {
	sp.mu.Lock()
	sp.next++
	n := sp.next
	sp.pending[n] = raw
	sp.mu.Unlock()
	m := append(bytes.Clone(sp.prefix), strconv.FormatUint(n, 10)...)
	return append(m, `"}`...)
}

// maxSpliced bounds the messages searched for a marker: a message with a
// marker is small (the marker stands for the bulk of it).
const maxSpliced = 4 << 10

// write writes p to w with a marker, if p holds one, replaced by its
// bytes. It reports whether p held one.
func (sp *splicer) write(w io.Writer, p []byte) (bool, error) {
	if len(p) > maxSpliced {
		return false, nil
	}
	i := bytes.Index(p, sp.prefix)
	if i < 0 {
		return false, nil
	}
	rest := p[i+len(sp.prefix):]
	j := bytes.Index(rest, []byte(`"}`))
	if j < 0 {
		return false, nil
	}
	n, err := strconv.ParseUint(string(rest[:j]), 10, 64)
	if err != nil {
		return false, nil
	}
	sp.mu.Lock()
	raw, ok := sp.pending[n]
	delete(sp.pending, n)
	sp.mu.Unlock()
	if !ok {
		return false, nil
	}
	for _, b := range append(append(listBytes{p[:i]}, raw...), rest[j+2:]) {
		if _, err := w.Write(b); err != nil {
			return true, err
		}
	}
	return true, nil
}
