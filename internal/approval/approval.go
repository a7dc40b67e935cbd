// Package approval keeps the approvals that a face asks for in one request
// and acts on in the next. One face is the MCP multi round-trip of
// 2026-07-28. The client answers an input request, then calls again. The
// other is the page of `toolhost serve --http`. The person confirms, then
// the page calls again. A [Tickets] value issues one-time tickets. Each is
// bound to one tool and its exact arguments, and kept by the server:
//
//	id := tickets.Issue("rm", args)     // sent with the question to the person
//	ok := tickets.Redeem(id, "rm", args) // true once, for that tool and those arguments
//
// A ticket is a random id, not a signed claim. It means something only to
// the server that issued it, and only once. Nothing a model sends is a
// ticket: not an argument, an answer or metadata.
package approval

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"sync"
	"time"
)

// Defaults of [Tickets].
const (
	// TTL is how long a ticket can be redeemed after it was issued.
	TTL = 10 * time.Minute
	// Max bounds the tickets kept at once. When full, the oldest is
	// forgotten first.
	Max = 4096
)

// Tickets issues and redeems one-time approval tickets. The zero value is
// ready. It is safe for concurrent use.
//
// # Trade-offs
//
// Tickets are kept in memory. A restarted server forgets its tickets, and
// the person is asked again. So does a server that issued more than [Max]
// in [TTL].
type Tickets struct {
	// Now, if set, replaces time.Now (tests).
	Now func() time.Time

	mu    sync.Mutex
	live  map[string]ticket
	order []string // ids in the order issued, for eviction (redeemed ones until they come first)
}

type ticket struct {
	call    string // hash of the tool name and arguments
	expires time.Time
}

// Issue returns a new ticket for a call of tool with args.
func (t *Tickets) Issue(tool string, args map[string]any) string {
	b := make([]byte, 18)
	rand.Read(b) // never fails (crypto/rand)
	id := base64.RawURLEncoding.EncodeToString(b)
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.live == nil {
		t.live = map[string]ticket{}
	}
	now := t.now()
	for len(t.order) > 0 && (len(t.live) >= Max || len(t.order) >= 2*Max || !now.Before(t.live[t.order[0]].expires)) {
		delete(t.live, t.order[0])
		t.order = t.order[1:]
	}
	t.live[id] = ticket{call: callHash(tool, args), expires: now.Add(TTL)}
	t.order = append(t.order, id)
	return id
}

// Redeem reports whether id is a live ticket issued for tool and args. It
// forgets the ticket: a ticket is good once. A wrong tool or other
// arguments spend it too. So nobody can probe it.
func (t *Tickets) Redeem(id, tool string, args map[string]any) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	tk, ok := t.live[id]
	if !ok {
		return false
	}
	delete(t.live, id) // its place in order goes when it comes first
	return t.now().Before(tk.expires) && tk.call == callHash(tool, args)
}

func (t *Tickets) now() time.Time {
	if t.Now != nil {
		return t.Now()
	}
	return time.Now()
}

// callHash identifies a call by its tool and its arguments as JSON. Map
// keys are sorted. Numbers are their digits (json.Number).
func callHash(tool string, args map[string]any) string {
	data, err := json.Marshal(args)
	if err != nil {
		data = []byte("\x00unmarshalable") // never matches a marshalable call
	}
	h := sha256.New()
	h.Write([]byte(tool))
	h.Write([]byte{0})
	h.Write(data)
	return string(h.Sum(nil))
}
