package mcpserver_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/face/mcpserver"
	"github.com/toolhost/toolhost/internal/mcpoffer"
	"github.com/toolhost/toolhost/resolver"
)

// floodOffer is a catalog whose MCP server offers the resource
// test://flood and takes subscriptions. The server's resources/updated
// notes are sent by calling note, as its connection would.
type floodOffer struct {
	*resolver.Catalog
	mu   sync.Mutex
	note func(uri string)
}

func (*floodOffer) MayOffer() bool { return true }
func (*floodOffer) Offer(context.Context) (*mcpoffer.Offer, []catalog.Problem) {
	return &mcpoffer.Offer{Resources: []*mcp.Resource{{URI: "test://flood", Name: "flood"}}, Subscribes: true}, nil
}
func (*floodOffer) ReadResource(_ context.Context, uri string) (*mcp.ReadResourceResult, error) {
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, Text: "x"}}}, nil
}
func (*floodOffer) SubscribeResource(context.Context, string) error { return nil }
func (f *floodOffer) WatchOffer(_ func(), updated func(string)) func() {
	f.mu.Lock()
	f.note = updated
	f.mu.Unlock()
	return func() {}
}

// gatedTransport is a client transport whose reads wait while its gate
// is locked: a client that stopped reading, so the server's sends to it
// wait.
type gatedTransport struct {
	mcp.Transport
	gate *sync.RWMutex
}

func (g gatedTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := g.Transport.Connect(ctx)
	return gatedConn{c, g.gate}, err
}

type gatedConn struct {
	mcp.Connection
	gate *sync.RWMutex
}

func (c gatedConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	c.gate.RLock()
	c.gate.RUnlock()
	return c.Connection.Read(ctx)
}

// TestResourceUpdatedFlood: a server sending 10,000 resources/updated
// notes for a resource a slow client subscribed to, then 10,000 for
// resources nobody did, makes a few goroutines, not one a note. A note on
// a resource whose note waits adds nothing, so the client is told a few
// times, not 10,000; past the waiting bound notes are dropped, with one
// warning. Once the client reads again it is told of
// the resource's change, and of a change that comes after the flood.
func TestResourceUpdatedFlood(t *testing.T) {
	cat := &floodOffer{Catalog: boundCatalog(t)}
	var logs bytes.Buffer
	var logMu sync.Mutex
	s := mcpserver.New(cat, &mcpserver.Options{ResultsDir: t.TempDir(), Logger: slog.New(slog.NewTextHandler(&lockedWriter{&logs, &logMu}, nil))})
	t.Cleanup(func() { s.Close() })
	var got atomic.Int64
	c, _ := newClient(t, &mcp.ClientOptions{ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
		if req.Params.URI == "test://flood" {
			got.Add(1)
		}
	}})
	st, ct := mcp.NewInMemoryTransports()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go func() { _ = s.Run(ctx, st) }()
	gate := &sync.RWMutex{}
	cs, err := c.Connect(t.Context(), gatedTransport{ct, gate}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	if err := cs.Subscribe(t.Context(), &mcp.SubscribeParams{URI: "test://flood"}); err != nil {
		t.Fatal(err)
	}
	cat.mu.Lock()
	note := cat.note
	cat.mu.Unlock()
	if note == nil {
		t.Fatal("the server did not watch the catalog's offer")
	}

	waitFor := func(what string, ok func() bool) {
		t.Helper()
		deadline := time.Now().Add(15 * time.Second)
		for !ok() {
			if time.Now().After(deadline) {
				t.Fatalf("after 15 s: %s (told %d times)", what, got.Load())
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	// The server takes the subscription a moment after answering it.
	waitFor("a note on the subscribed resource did not reach the client", func() bool {
		note("test://flood")
		return got.Load() > 0
	})
	time.Sleep(50 * time.Millisecond)
	settled := got.Load()

	gate.Lock() // the client stops reading
	before := runtime.NumGoroutine()
	for range 10000 {
		note("test://flood")
	}
	for i := range 10000 {
		note(fmt.Sprintf("test://other/%d", i))
	}
	time.Sleep(100 * time.Millisecond) // what the notes started, if anything, runs
	during := runtime.NumGoroutine()
	gate.Unlock()
	t.Logf("goroutines: %d before the notes, %d while they were forwarded", before, during)
	if during-before > 10 {
		t.Errorf("%d goroutines while 20,000 notes were forwarded, %d before: want at most 10 more", during, before)
	}

	waitFor("the client was never told of the flood's change", func() bool { return got.Load() > settled })
	waitFor("the forwarding goroutines did not end", func() bool { return runtime.NumGoroutine() <= before })
	last, quiet := got.Load(), time.Now()
	waitFor("the notes did not stop coming", func() bool {
		if n := got.Load(); n != last {
			last, quiet = n, time.Now()
		}
		return time.Since(quiet) > 300*time.Millisecond
	})
	if n := last - settled; n > 10 {
		t.Errorf("the client was told %d times of 10,000 notes on one resource, want at most 10", n)
	}
	note("test://flood")
	waitFor("a change after the flood did not reach the client", func() bool { return got.Load() == last+1 })

	logMu.Lock()
	defer logMu.Unlock()
	const warning = `level=WARN msg="a server's resources/updated notes are dropped: too many resources changed at once for the sessions to be told" waiting=1024`
	if c := strings.Count(logs.String(), warning); c != 1 {
		t.Errorf("the drop warning is logged %d times, want once: %s", c, warning)
	}
}
