package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/yosida95/uritemplate/v3"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/internal/bound"
	"github.com/toolhost/toolhost/internal/mcpoffer"
)

// offerer is the optional interface of a [Catalog] whose MCP servers
// offer resources, resource templates and prompts (*resolver.Catalog, which has them).
// The server serves them beside the tools.
type offerer interface {
	MayOffer() bool
	Offer(ctx context.Context) (*mcpoffer.Offer, []catalog.Problem)
	ReadResource(ctx context.Context, uri string) (*mcp.ReadResourceResult, error)
	GetPrompt(ctx context.Context, name string, args map[string]string) (*mcp.GetPromptResult, error)
	Complete(ctx context.Context, params *mcp.CompleteParams) (*mcp.CompleteResult, error)
	SubscribeResource(ctx context.Context, uri string) error
	WatchOffer(changed func(), updated func(uri string)) func()
}

// offered is what the server serves of its catalog's offer: the items it
// gave the SDK, listed on a client's first need and again after a
// server says its list changed.
type offered struct {
	cat    offerer
	mcp    func() *mcp.Server
	logger func(msg string, args ...any)

	mu        sync.Mutex
	fresh     bool              // the SDK holds the last listing
	resources map[string][]byte // given to the SDK, by URI: their JSON
	templates map[string][]byte // by template
	prompts   map[string][]byte // by name
	stop      func()

	relist struct { // the listing again after a server's changes
		sync.Mutex
		running bool // a goroutine lists the offer again
		again   bool // a change came while it did: it lists once more
	}

	notes struct { // a server's resources/updated, on their way to the sessions
		sync.Mutex
		waiting map[string]bool // URIs whose note waits to be sent
		queue   []string        // the same, in the order they came
		senders int             // goroutines sending them, at most updateSenders
		dropped bool            // a note was dropped, as maxWaitingUpdates waited
	}
}

// Bounds on the forwarding of resources/updated. A note for a URI whose
// note still waits adds nothing. So a flood of notes on a few resources
// costs a few sends. At most maxWaitingUpdates URIs wait: a note beyond
// them is dropped. At most updateSenders goroutines send, so that one slow
// session does not hold the others' notes for long.
const (
	maxWaitingUpdates = 1024
	updateSenders     = 4
)

// offerOptions readies the serving of cat's offer when cat has one: it
// declares resources, prompts, completions and subscriptions in opts (a
// capability is declared at initialize, before anything is listed).
// It returns nil when cat offers nothing.
func (s *Server) offerOptions(cat Catalog, opts *mcp.ServerOptions) *offered {
	oc, ok := cat.(offerer)
	if !ok || !oc.MayOffer() {
		return nil
	}
	o := &offered{cat: oc, mcp: func() *mcp.Server { return s.mcp }, logger: s.logger.Warn,
		resources: map[string][]byte{}, templates: map[string][]byte{}, prompts: map[string][]byte{}}
	opts.HasResources, opts.HasPrompts = true, true
	opts.CompletionHandler = o.complete
	opts.SubscribeHandler = o.subscribe
	opts.UnsubscribeHandler = o.unsubscribe
	return o
}

// serveOffer makes the SDK server serve o: the offer is listed before
// the first request about it, and again after a server says it changed.
func (s *Server) serveOffer(o *offered) {
	if o == nil {
		return
	}
	s.mcp.AddReceivingMiddleware(o.listFirst)
	o.stop = o.cat.WatchOffer(o.changed, o.updated)
}

// listFirst lists the offer before a request that needs it.
func (o *offered) listFirst(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch method {
		case "resources/list", "resources/templates/list", "resources/read", "resources/subscribe",
			"prompts/list", "prompts/get", "completion/complete":
			o.sync(ctx)
		}
		return next(ctx, method, req)
	}
}

// changed is a server's note that its resources or prompts changed: the
// offer is listed again, and the SDK tells the clients what changed. It
// runs on the server's connection, which a sync under way may be waiting
// on: the work is done on a goroutine of its own. One goroutine lists at
// a time. The notes that come while it does make one more listing, so a
// flood of them costs no more than two.
func (o *offered) changed() {
	o.relist.Lock()
	defer o.relist.Unlock()
	if o.relist.running {
		o.relist.again = true
		return
	}
	o.relist.running = true
	go func() {
		for {
			o.mu.Lock()
			o.fresh = false
			o.mu.Unlock()
			o.sync(context.Background())
			o.relist.Lock()
			again := o.relist.again
			o.relist.again, o.relist.running = false, again
			o.relist.Unlock()
			if !again {
				return
			}
		}
	}()
}

// updated forwards a server's resources/updated to the sessions
// subscribed to uri. It runs on the server's connection and does not
// block: the note waits for one of at most updateSenders goroutines (a
// session may be slow). A note for a URI whose note waits is dropped, as
// the one waiting says the same. So is one that finds maxWaitingUpdates
// URIs waiting; the first such drop is logged.
func (o *offered) updated(uri string) {
	n := &o.notes
	n.Lock()
	switch {
	case n.waiting[uri]:
		n.Unlock()
		return
	case len(n.queue) >= maxWaitingUpdates:
		first := !n.dropped
		n.dropped = true
		n.Unlock()
		if first {
			o.logger("a server's resources/updated notes are dropped: too many resources changed at once for the sessions to be told", "waiting", maxWaitingUpdates)
		}
		return
	}
	if n.waiting == nil {
		n.waiting = map[string]bool{}
	}
	n.waiting[uri] = true
	n.queue = append(n.queue, uri)
	start := n.senders < updateSenders
	if start {
		n.senders++
	}
	n.Unlock()
	if start {
		go o.sendUpdates()
	}
}

// sendUpdates sends the waiting resources/updated notes, oldest first,
// until none waits.
func (o *offered) sendUpdates() {
	n := &o.notes
	for {
		n.Lock()
		if len(n.queue) == 0 {
			n.queue = nil // the array a flood grew goes
			n.senders--
			n.Unlock()
			return
		}
		uri := n.queue[0]
		n.queue = n.queue[1:]
		delete(n.waiting, uri) // a note that comes from now on is sent again
		n.Unlock()
		_ = o.mcp().ResourceUpdated(context.Background(), &mcp.ResourceUpdatedNotificationParams{URI: uri})
	}
}

// sync gives the SDK the catalog's offer when it does not hold the last
// listing: what is new or changed is added, what is gone removed. A URI
// or template the SDK would refuse is left out and logged. So is one in
// the toolhost scheme: the kept results' template is the server's own.
func (o *offered) sync(ctx context.Context) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.fresh {
		return
	}
	off, problems := o.cat.Offer(ctx)
	for _, p := range problems {
		o.logger("serving the MCP servers' resources and prompts", "problem", p.Error())
	}
	srv := o.mcp()
	seen := map[string]bool{}
	for _, r := range off.Resources {
		if _, err := url.Parse(r.URI); err != nil {
			o.logger("a server's resource is left out", "uri", r.URI, "error", err)
			continue
		}
		if ownScheme(r.URI) {
			o.logger("a server's resource is left out", "uri", r.URI, "error", errOwnScheme)
			continue
		}
		seen[r.URI] = true
		if add(o.resources, r.URI, r) {
			srv.AddResource(r, o.read)
		}
	}
	drop(o.resources, seen, srv.RemoveResources)
	seen = map[string]bool{}
	for _, t := range off.Templates {
		if _, err := uritemplate.New(t.URITemplate); err != nil {
			o.logger("a server's resource template is left out", "uriTemplate", t.URITemplate, "error", err)
			continue
		}
		if ownScheme(t.URITemplate) {
			o.logger("a server's resource template is left out", "uriTemplate", t.URITemplate, "error", errOwnScheme)
			continue
		}
		seen[t.URITemplate] = true
		if add(o.templates, t.URITemplate, t) {
			srv.AddResourceTemplate(t, o.read)
		}
	}
	drop(o.templates, seen, srv.RemoveResourceTemplates)
	seen = map[string]bool{}
	for _, p := range off.Prompts {
		seen[p.Name] = true
		if add(o.prompts, p.Name, p) {
			srv.AddPrompt(p, o.get)
		}
	}
	drop(o.prompts, seen, srv.RemovePrompts)
	o.fresh = true
	for _, p := range problems {
		if !p.Warning { // a server that could not be listed is asked again
			o.fresh = false
		}
	}
}

// errOwnScheme is why a server's resource in the toolhost scheme is left out.
var errOwnScheme = errors.New("the toolhost scheme is toolhost's own: a server's resource there could answer for a kept result")

// ownScheme reports whether a URI or URI template is in the toolhost
// scheme, whose case does not matter.
func ownScheme(uri string) bool {
	scheme, _, _ := strings.Cut(bound.URIPrefix, ":")
	return len(uri) > len(scheme) && strings.EqualFold(uri[:len(scheme)+1], scheme+":")
}

// add records v under key in held, reporting whether it is new or changed.
func add(held map[string][]byte, key string, v any) bool {
	data, _ := json.Marshal(v)
	if old, ok := held[key]; ok && string(old) == string(data) {
		return false
	}
	held[key] = data
	return true
}

// drop forgets the keys of held not seen and removes them with remove.
func drop(held map[string][]byte, seen map[string]bool, remove func(...string)) {
	var gone []string
	for k := range held {
		if !seen[k] {
			gone = append(gone, k)
			delete(held, k)
		}
	}
	if len(gone) > 0 {
		remove(gone...)
	}
}

// read reads a resource from the server offering it.
func (o *offered) read(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	res, err := o.cat.ReadResource(ctx, req.Params.URI)
	if errors.Is(err, mcpoffer.ErrNotOffered) {
		return nil, mcp.ResourceNotFoundError(req.Params.URI)
	}
	return res, err
}

// get gets a prompt from the server offering it.
func (o *offered) get(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	return o.cat.GetPrompt(ctx, req.Params.Name, req.Params.Arguments)
}

// complete asks the server offering the reference to complete it.
func (o *offered) complete(ctx context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
	return o.cat.Complete(ctx, req.Params)
}

// subscribe forwards a session's subscription to the server offering the
// resource. The SDK keeps which sessions subscribed, and sends each the
// server's resources/updated.
func (o *offered) subscribe(ctx context.Context, req *mcp.SubscribeRequest) error {
	uri := req.Params.URI
	if err := o.cat.SubscribeResource(ctx, uri); err != nil {
		if errors.Is(err, mcpoffer.ErrNotOffered) {
			return mcp.ResourceNotFoundError(uri)
		}
		return fmt.Errorf("subscribing to %s: %w", uri, err)
	}
	return nil
}

// unsubscribe ends a session's subscription. toolhost keeps its own
// upstream: the go-sdk ends every list_changed subscription of a
// connection with any of its listen streams (docs/mcp.md).
func (o *offered) unsubscribe(context.Context, *mcp.UnsubscribeRequest) error { return nil }
