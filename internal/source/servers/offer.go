package servers

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/yosida95/uritemplate/v3"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/internal/mcpoffer"
)

// Offers is what the MCP servers among a catalog's sources offer beside
// their tools, made one offer: resources keyed by URI and templates by
// their template, the first declared keeping one several offer; prompts
// named with their server's prefix, the first declared keeping a name.
// Remotes offer none. Requests go to the server that offers the resource
// or prompt. It is safe for concurrent use.
type Offers struct {
	srcs []catalog.Source // in declaration order

	mu       sync.Mutex
	routes   *routes // of the last listing; nil: list first
	watchers map[int]offerWatcher
	nextW    int
	hooked   map[*server]bool
}

// offerWatcher is one [Offers.Watch].
type offerWatcher struct {
	changed func()
	updated func(uri string)
}

// routes says which server offers what, from one listing.
type routes struct {
	resources map[string]*server      // by URI
	templates []routedTemplate        // in declaration order
	prompts   map[string]routedPrompt // by served name
}

type routedTemplate struct {
	template string
	match    *uritemplate.Template // nil when the template does not parse
	srv      *server
}

type routedPrompt struct {
	name string // on the server
	srv  *server
	args []*mcp.PromptArgument // as the server lists them
}

// NewOffers returns the offer of srcs. cfg, if set, orders them as the
// configuration declares them (by layer, then line), so that the first
// declared keeps a URI or name several offer; else they keep their order.
func NewOffers(srcs []catalog.Source, cfg *config.Config) *Offers {
	srcs = slices.Clone(srcs)
	if cfg != nil {
		layer := func(file string) int {
			if i := slices.Index(cfg.Files, file); i >= 0 {
				return i
			}
			return len(cfg.Files)
		}
		place := func(src catalog.Source) config.Position {
			if sc := cfg.Servers[strings.TrimPrefix(src.Name(), "mcp.")]; sc != nil && strings.HasPrefix(src.Name(), "mcp.") {
				return sc.Place
			}
			if r := cfg.Remotes[strings.TrimPrefix(src.Name(), "remote.")]; r != nil {
				return r.Place
			}
			return config.Position{File: "\xff"}
		}
		slices.SortStableFunc(srcs, func(x, y catalog.Source) int {
			px, py := place(x), place(y)
			return cmp.Or(cmp.Compare(layer(px.File), layer(py.File)), cmp.Compare(px.Line, py.Line))
		})
	}
	return &Offers{srcs: srcs, watchers: map[int]offerWatcher{}, hooked: map[*server]bool{}}
}

// Any reports whether some source may offer resources or prompts: an MCP
// server is among them. Nothing is started.
func (o *Offers) Any() bool {
	if o == nil {
		return false
	}
	for _, src := range o.srcs {
		switch src.(type) {
		case *server, *restored:
			return true
		}
	}
	return false
}

// Offer lists the servers' offers (each server starts if it is not
// running) as one. A server whose tools could not be listed last is not
// asked. A server that cannot be listed, and a URI or name a
// server loses to one declared before it, are problems; the rest is
// offered. Completes and Subscribes say whether some server does.
func (o *Offers) Offer(ctx context.Context) (*mcpoffer.Offer, []catalog.Problem) {
	out := &mcpoffer.Offer{}
	var problems []catalog.Problem
	r := &routes{resources: map[string]*server{}, prompts: map[string]routedPrompt{}}
	templates := map[string]*server{}
	if o == nil {
		return out, nil
	}
	for _, src := range o.srcs {
		s, err := o.server(ctx, src)
		if err != nil {
			problems = append(problems, catalog.Problem{Place: placeOf(src), Err: err})
			continue
		}
		if s == nil {
			continue // a remote: it offers none
		}
		s.mu.Lock()
		listErr := s.listErr
		s.mu.Unlock()
		if listErr != nil { // not started again for its offer: it is tried when its tools are
			problems = append(problems, catalog.Problem{Place: s.cfg.Place.String(), Err: listErr})
			continue
		}
		off, err := s.src.Offer(ctx)
		if err != nil {
			problems = append(problems, catalog.Problem{Place: s.cfg.Place.String(), Err: s.sandboxHint(err)})
			continue
		}
		out.Completes = out.Completes || off.Completes
		out.Subscribes = out.Subscribes || off.Subscribes
		for _, res := range off.Resources {
			if res == nil {
				continue
			}
			if w, ok := r.resources[res.URI]; ok {
				problems = append(problems, s.lost("resource", res.URI, w))
				continue
			}
			r.resources[res.URI] = s
			out.Resources = append(out.Resources, res)
		}
		for _, t := range off.Templates {
			if t == nil {
				continue
			}
			if w, ok := templates[t.URITemplate]; ok {
				problems = append(problems, s.lost("resource template", t.URITemplate, w))
				continue
			}
			templates[t.URITemplate] = s
			m, _ := uritemplate.New(t.URITemplate)
			r.templates = append(r.templates, routedTemplate{template: t.URITemplate, match: m, srv: s})
			out.Templates = append(out.Templates, t)
		}
		for _, p := range off.Prompts {
			if p == nil {
				continue
			}
			name := s.cfg.Prefix + p.Name
			if w, ok := r.prompts[name]; ok {
				problems = append(problems, s.lost("prompt", name, w.srv))
				continue
			}
			r.prompts[name] = routedPrompt{name: p.Name, srv: s, args: p.Arguments}
			if name != p.Name {
				cp := *p
				cp.Name = name
				p = &cp
			}
			out.Prompts = append(out.Prompts, p)
		}
	}
	o.mu.Lock()
	o.routes = r
	o.mu.Unlock()
	return out, problems
}

// lost is the problem of what s offers under a key winner took first.
func (s *server) lost(kind, key string, winner *server) catalog.Problem {
	if winner == s {
		return catalog.Problem{Place: s.cfg.Place.String(), Warning: true,
			Err: fmt.Errorf("%s: %s %q is listed twice: the second is left out", s.name, kind, key),
			Fix: "report it to the server's authors"}
	}
	fix := fmt.Sprintf("to serve %s's, disable %s or declare %s first", s.name, winner.name, s.name)
	if kind == "prompt" {
		fix = fmt.Sprintf("set prefix in [mcp_servers.%s] to tell their prompts apart", s.cfg.Name)
	}
	return catalog.Problem{Place: s.cfg.Place.String(), Warning: true,
		Err: fmt.Errorf("%s: %s %q is offered by %s too, declared first: %s's is left out", s.name, kind, key, winner.name, s.name),
		Fix: fix}
}

// placeOf is where src is declared, "" when unknown.
func placeOf(src catalog.Source) string {
	if s, ok := src.(*server); ok {
		return s.cfg.Place.String()
	}
	return ""
}

// server returns the MCP server of src, made if src was restored, nil
// for a remote.
func (o *Offers) server(ctx context.Context, src catalog.Source) (*server, error) {
	if r, ok := src.(*restored); ok {
		real, err := r.source(ctx)
		if err != nil {
			return nil, err
		}
		src = real
	}
	s, ok := src.(*server)
	if !ok {
		return nil, nil
	}
	o.hook(s)
	return s, nil
}

// hook makes s's notes of changes reach o's watchers, once.
func (o *Offers) hook(s *server) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.hooked[s] {
		return
	}
	o.hooked[s] = true
	s.notes.set(o.offerChanged, o.resourceUpdated)
}

// Watch registers changed to run when a server says its resources or
// prompts changed, and updated when a subscribed resource changed. Both
// may be nil. The notes of a server arrive once it was listed. Both run
// on the server's connection: they must not block. The returned
// function ends the watch.
func (o *Offers) Watch(changed func(), updated func(uri string)) func() {
	o.mu.Lock()
	defer o.mu.Unlock()
	id := o.nextW
	o.nextW++
	o.watchers[id] = offerWatcher{changed: changed, updated: updated}
	return func() {
		o.mu.Lock()
		delete(o.watchers, id)
		o.mu.Unlock()
	}
}

// offerChanged forgets the routes and tells the watchers.
func (o *Offers) offerChanged() {
	o.mu.Lock()
	o.routes = nil
	ws := o.sortedWatchers()
	o.mu.Unlock()
	for _, w := range ws {
		if w.changed != nil {
			w.changed()
		}
	}
}

// resourceUpdated tells the watchers.
func (o *Offers) resourceUpdated(uri string) {
	o.mu.Lock()
	ws := o.sortedWatchers()
	o.mu.Unlock()
	for _, w := range ws {
		if w.updated != nil {
			w.updated(uri)
		}
	}
}

func (o *Offers) sortedWatchers() []offerWatcher {
	ws := make([]offerWatcher, 0, len(o.watchers))
	for _, id := range sortedKeys(o.watchers) {
		ws = append(ws, o.watchers[id])
	}
	return ws
}

// current returns the routes of the last listing, listing first when
// there is none.
func (o *Offers) current(ctx context.Context) *routes {
	o.mu.Lock()
	r := o.routes
	o.mu.Unlock()
	if r == nil {
		o.Offer(ctx)
		o.mu.Lock()
		r = o.routes
		o.mu.Unlock()
	}
	return r
}

// owner returns the server offering the resource at uri: the one listing
// it, else the first whose template matches it.
func (r *routes) owner(uri string) *server {
	if s, ok := r.resources[uri]; ok {
		return s
	}
	for _, t := range r.templates {
		if t.match != nil && t.match.Regexp().MatchString(uri) {
			return t.srv
		}
	}
	return nil
}

// notOffered is the error of a key no server offers.
func notOffered(kind, key string) error {
	return fmt.Errorf("%s %q: %w (as last listed)", kind, key, mcpoffer.ErrNotOffered)
}

// ReadResource reads the resource at uri from the server offering it.
// A result's _meta loses the server's name and version
// (io.modelcontextprotocol/serverInfo): toolhost answers, not the server.
func (o *Offers) ReadResource(ctx context.Context, uri string) (*mcp.ReadResourceResult, error) {
	s := o.current(ctx).owner(uri)
	if s == nil {
		return nil, notOffered("resource", uri)
	}
	res, err := s.src.ReadResource(ctx, uri)
	if res != nil {
		delete(res.Meta, mcp.MetaKeyServerInfo)
	}
	return res, s.sandboxHint(err)
}

// GetPrompt gets the prompt served as name from the server offering it.
func (o *Offers) GetPrompt(ctx context.Context, name string, args map[string]string) (*mcp.GetPromptResult, error) {
	p, ok := o.current(ctx).prompts[name]
	if !ok {
		return nil, notOffered("prompt", name)
	}
	if err := p.check(name, args); err != nil {
		return nil, err
	}
	res, err := p.srv.src.GetPrompt(ctx, p.name, args)
	if res != nil {
		delete(res.Meta, mcp.MetaKeyServerInfo)
	}
	return res, p.srv.sandboxHint(err)
}

// check refuses args of the prompt served as name that it does not list,
// or that leave out one it requires: the server may fill the gap with
// nothing and answer as if all were well.
func (p routedPrompt) check(name string, args map[string]string) error {
	var takes, missing, unknown []string
	for _, a := range p.args {
		if a == nil {
			continue
		}
		takes = append(takes, a.Name)
		if _, ok := args[a.Name]; a.Required && !ok {
			missing = append(missing, a.Name)
		}
	}
	for k := range args {
		if !slices.Contains(takes, k) {
			unknown = append(unknown, k)
		}
	}
	slices.Sort(unknown)
	var problems []string
	if len(missing) > 0 {
		problems = append(problems, fmt.Sprintf("missing required %s %s", plural(len(missing), "argument"), catalog.QuoteList(missing)))
	}
	if len(unknown) > 0 {
		takesText := "no arguments"
		if len(takes) > 0 {
			takesText = catalog.QuoteList(takes)
		}
		problems = append(problems, fmt.Sprintf("unknown %s %s (the prompt takes %s)", plural(len(unknown), "argument"), catalog.QuoteList(unknown), takesText))
	}
	if problems == nil {
		return nil
	}
	return fmt.Errorf("invalid arguments for prompt %q: %s", name, strings.Join(problems, "; "))
}

// plural is word, with an s when n is not 1.
func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// Complete asks the server offering the prompt or resource template the
// reference names to complete one of its arguments. A prompt's name is
// given to the server as the server names it.
func (o *Offers) Complete(ctx context.Context, params *mcp.CompleteParams) (*mcp.CompleteResult, error) {
	if params == nil || params.Ref == nil {
		return nil, fmt.Errorf("completion/complete without a reference: %w", mcpoffer.ErrNotOffered)
	}
	r := o.current(ctx)
	p := *params
	ref := *params.Ref
	p.Ref = &ref
	var s *server
	switch ref.Type {
	case "ref/prompt":
		rp, ok := r.prompts[ref.Name]
		if !ok {
			return nil, notOffered("prompt", ref.Name)
		}
		s, ref.Name = rp.srv, rp.name
	case "ref/resource":
		for _, t := range r.templates {
			if t.template == ref.URI {
				s = t.srv
				break
			}
		}
		if s == nil {
			s = r.resources[ref.URI]
		}
		if s == nil {
			return nil, notOffered("resource template", ref.URI)
		}
	default:
		return nil, fmt.Errorf("completion reference type %q: %w", ref.Type, mcpoffer.ErrNotOffered)
	}
	res, err := s.src.Complete(ctx, &p)
	if res != nil {
		delete(res.Meta, mcp.MetaKeyServerInfo)
	}
	return res, s.sandboxHint(err)
}

// Subscribe asks the server offering the resource at uri for its
// updates, which reach the watchers' updated ([Offers.Watch]).
func (o *Offers) Subscribe(ctx context.Context, uri string) error {
	s := o.current(ctx).owner(uri)
	if s == nil {
		return notOffered("resource", uri)
	}
	return s.sandboxHint(s.src.Subscribe(ctx, uri))
}

// offerNotes are where a server's notes of changes to its offer go: to
// the [Offers] that listed it.
type offerNotes struct {
	mu      sync.Mutex
	changed func()
	updated func(uri string)
}

func (n *offerNotes) set(changed func(), updated func(string)) {
	n.mu.Lock()
	n.changed, n.updated = changed, updated
	n.mu.Unlock()
}

// offerChanged is the server's list_changed of resources or prompts.
func (s *server) offerChanged() {
	s.notes.mu.Lock()
	f := s.notes.changed
	s.notes.mu.Unlock()
	if f != nil {
		f()
	}
}

// resourceUpdated is the server's resources/updated.
func (s *server) resourceUpdated(uri string) {
	s.notes.mu.Lock()
	f := s.notes.updated
	s.notes.mu.Unlock()
	if f != nil {
		f(uri)
	}
}
