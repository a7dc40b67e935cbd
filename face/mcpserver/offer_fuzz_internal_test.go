package mcpserver

import (
	"context"
	"log/slog"
	"net/url"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/yosida95/uritemplate/v3"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/internal/mcpoffer"
)

// fixedOffer is an offerer serving one offer, with problems, counting
// its listings.
type fixedOffer struct {
	off      *mcpoffer.Offer
	problems []catalog.Problem
	listed   *int
}

func (f fixedOffer) MayOffer() bool { return true }
func (f fixedOffer) Offer(context.Context) (*mcpoffer.Offer, []catalog.Problem) {
	if f.listed != nil {
		*f.listed++
	}
	return f.off, f.problems
}
func (fixedOffer) ReadResource(context.Context, string) (*mcp.ReadResourceResult, error) {
	return nil, mcpoffer.ErrNotOffered
}
func (fixedOffer) GetPrompt(context.Context, string, map[string]string) (*mcp.GetPromptResult, error) {
	return nil, mcpoffer.ErrNotOffered
}
func (fixedOffer) Complete(context.Context, *mcp.CompleteParams) (*mcp.CompleteResult, error) {
	return nil, mcpoffer.ErrNotOffered
}
func (fixedOffer) SubscribeResource(context.Context, string) error { return mcpoffer.ErrNotOffered }
func (fixedOffer) WatchOffer(func(), func(string)) func()          { return func() {} }

// FuzzOfferSync: whatever URIs, templates and prompt names a server
// lists, giving them to the SDK never panics (the SDK panics on a URI or
// template it cannot parse), and what the SDK then lists is what parses,
// but for the toolhost scheme.
func FuzzOfferSync(f *testing.F) {
	for _, s := range [][3]string{{"test://a", "test://{id}", "p"}, {"%zz", "{", ""}, {"", "x://{a", "\x00"}, {"ui://w/p.html", "test://t/{id}/data", "b_p"}, {"Toolhost://result/a", "toolhost://result/{id}", "p"}} {
		f.Add(s[0], s[1], s[2])
	}
	f.Fuzz(func(t *testing.T, uri, tmpl, prompt string) {
		off := &mcpoffer.Offer{
			Resources: []*mcp.Resource{{URI: uri, Name: "r"}},
			Templates: []*mcp.ResourceTemplate{{URITemplate: tmpl, Name: "t"}},
			Prompts:   []*mcp.Prompt{{Name: prompt}},
		}
		srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "0"}, nil)
		o := &offered{cat: fixedOffer{off: off}, mcp: func() *mcp.Server { return srv }, logger: slog.New(slog.DiscardHandler).Warn,
			resources: map[string][]byte{}, templates: map[string][]byte{}, prompts: map[string][]byte{}}
		o.sync(context.Background())
		_, uriErr := url.Parse(uri)
		_, tmplErr := uritemplate.New(tmpl)
		if _, held := o.resources[uri]; held != (uriErr == nil && !ownScheme(uri)) {
			t.Fatalf("resource %q held %v, parse error %v", uri, held, uriErr)
		}
		if _, held := o.templates[tmpl]; held != (tmplErr == nil && !ownScheme(tmpl)) {
			t.Fatalf("template %q held %v, parse error %v", tmpl, held, tmplErr)
		}
		o.sync(context.Background()) // again, unchanged: nothing added twice
	})
}

// TestOfferSyncAgain: an offer is listed again after a server could not
// be listed, not after a warning (an item left out).
func TestOfferSyncAgain(t *testing.T) {
	for _, tt := range []struct {
		warning bool
		want    int
	}{{true, 1}, {false, 3}} {
		listed := 0
		srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "0"}, nil)
		o := &offered{cat: fixedOffer{off: &mcpoffer.Offer{}, problems: []catalog.Problem{{Warning: tt.warning, Err: mcpoffer.ErrNotOffered}}, listed: &listed},
			mcp: func() *mcp.Server { return srv }, logger: slog.New(slog.DiscardHandler).Warn,
			resources: map[string][]byte{}, templates: map[string][]byte{}, prompts: map[string][]byte{}}
		for range 3 {
			o.sync(context.Background())
		}
		if listed != tt.want {
			t.Errorf("warning %v: listed %d times in 3 requests, want %d", tt.warning, listed, tt.want)
		}
	}
}

// gatedOffer is an offerer whose listings wait for gate, counted.
type gatedOffer struct {
	fixedOffer
	gate chan struct{}

	mu     sync.Mutex
	listed int
}

func (g *gatedOffer) Offer(context.Context) (*mcpoffer.Offer, []catalog.Problem) {
	<-g.gate
	g.mu.Lock()
	g.listed++
	g.mu.Unlock()
	return &mcpoffer.Offer{}, nil
}

// TestOfferChangedCoalesced: a flood of a server's list_changed while
// the offer is being listed makes one more listing, not one each.
func TestOfferChangedCoalesced(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cat := &gatedOffer{gate: make(chan struct{})}
		srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "0"}, nil)
		o := &offered{cat: cat, mcp: func() *mcp.Server { return srv }, logger: slog.New(slog.DiscardHandler).Warn,
			resources: map[string][]byte{}, templates: map[string][]byte{}, prompts: map[string][]byte{}}
		for range 1000 {
			o.changed()
		}
		close(cat.gate)
		synctest.Wait()
		if cat.listed > 2 {
			t.Errorf("1000 list_changed made %d listings, want at most 2", cat.listed)
		}
	})
}
