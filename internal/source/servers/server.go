package servers

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/internal/config/mcptool"
	"github.com/toolhost/toolhost/internal/pin"
	"github.com/toolhost/toolhost/internal/source/internal/settings"
	"github.com/toolhost/toolhost/internal/source/mcp"
	"github.com/toolhost/toolhost/internal/telemetry"
	"github.com/toolhost/toolhost/tool"
)

// server is the catalog.Source of one MCP server: the tools its entries
// select, called through one internal/source/mcp.Source.
type server struct {
	// fixed at creation
	name    string          // "mcp.NAME"
	cfg     *config.Server  // its table
	root    string          // the workspace root, for the sandbox's explanations
	entries []*config.Entry // the entries serving its tools, sorted by key
	src     *mcp.Source
	calls   *calls
	pins    *pin.Store // nil: no pinning
	pinID   string

	mu       sync.Mutex
	picks    map[string]pick // by served name, from the last listing
	problems []catalog.Problem
	kept     []KeptTool   // the tools of the last listing, as Keep returns them
	validity mcp.Validity // of the last listing, when keepable
	keepable bool         // the last listing may be kept (see Keep)
	watchers map[int]func()
	nextW    int
	notes    offerNotes // where its resources' and prompts' changes go (offer.go)
	listErr  error      // the last listing's error: its offer is not asked for (offer.go)
}

// pick is one served tool: its name on the server and its entry.
type pick struct {
	server  string
	entry   *config.Entry
	timeout time.Duration
}

// newServer returns the source of s serving the tools entries select.
func newServer(s *config.Server, entries []*config.Entry, o *Options) (*server, error) {
	srv := &server{name: "mcp." + s.Name, cfg: s, root: o.Root, entries: entries, watchers: map[int]func(){},
		pins: o.Pins, pinID: pinID("mcp."+s.Name, s.URL, s.Argv())}
	srv.calls = &calls{name: srv.name}
	spec := mcp.Spec{Name: s.Name, URL: s.URL, Headers: s.Headers, BearerEnv: s.BearerTokenEnv}
	redactBearer(o.Audit, s.BearerTokenEnv)
	if s.Stdio() {
		argv := s.Argv()
		spec.Command, spec.Args = argv[0], argv[1:]
		for _, k := range sortedKeys(s.Env) {
			spec.Env = append(spec.Env, k+"="+s.Env[k])
		}
		spec.Dir = o.Root
		if s.Dir != "" {
			spec.Dir = s.Dir
			if !filepath.IsAbs(s.Dir) {
				spec.Dir = filepath.Join(o.Root, s.Dir)
			}
		}
		spec.Sandbox, spec.Root = policyOf(s), o.Root
		spec.Confinement = spec.Sandbox.Key() // its mode and rules: a listing is of them
	}
	if s.Timeout != nil {
		spec.CallTimeout = s.Timeout.Duration
	}
	if s.IdleTimeout != nil {
		spec.IdleTimeout = s.IdleTimeout.Duration
	}
	if s.StartTimeout != nil {
		spec.StartTimeout = s.StartTimeout.Duration
	}
	mo := &mcp.Options{CacheDir: cacheDir(o.CacheDir, mcpCache), OnChange: srv.changed, Retry: o.Retry,
		OnOfferChange: srv.offerChanged, OnResourceUpdated: srv.resourceUpdated}
	if !s.Stdio() {
		oc, err := OAuthConfig(s.Key(), s.OAuth)
		if err != nil {
			return nil, err
		}
		spec.OAuth, mo.OAuth = oc, oauthOptions(o)
	}
	if s.Stdio() && len(s.Secrets) > 0 {
		mo.Env = (&secretEnv{server: s, secrets: o.Secrets, audit: o.Audit}).env
	}
	src, err := mcp.New(spec, mo)
	if err != nil {
		return nil, err
	}
	srv.src = src
	return srv, nil
}

// Name returns "mcp.NAME".
func (s *server) Name() string { return s.name }

// Tools returns the tools the entries select from the server's listing
// (cached: see internal/source/mcp), with their overrides merged.
func (s *server) Tools(ctx context.Context) ([]*catalog.Tool, error) {
	l, err := s.src.Tools(ctx)
	if err != nil {
		err = sourceError(s.name, s.sandboxHint(err))
		s.mu.Lock()
		s.picks, s.problems, s.keepable, s.listErr = nil, nil, false, err
		s.mu.Unlock()
		return nil, err
	}
	defs := make(map[string]json.RawMessage, len(l.Tools))
	for _, t := range l.Tools {
		t.Meta = nil // not pinned: it names what a client shows, not what the model reads
		defs[t.Name] = marshalDef(t)
	}
	accepted, problems := pinned(s.pins, s.pinID, s.cfg.Place.String(), defs)
	held := len(problems) > 0 // reported at every listing: nothing kept
	listed := make(map[string]mcp.Tool, len(l.Tools))
	offered := make([]string, 0, len(l.Tools))
	for _, t := range l.Tools {
		if !accepted[t.Name] {
			continue
		}
		listed[t.Name] = t
		offered = append(offered, t.Name)
	}
	for _, e := range l.Skipped {
		problems = append(problems, catalog.Problem{Tool: e.Tool, Place: s.cfg.Place.String(), Warning: true, Err: e,
			Fix: "the server's tool is left out; report its definition to the server's authors"})
	}
	picks := map[string]pick{}
	var tools []*catalog.Tool
	for _, e := range s.entries {
		sel, warnings := mcptool.Select(e, offered)
		for _, w := range warnings {
			problems = append(problems, s.problem(e, w, !e.AllTools()))
		}
		for _, p := range sel {
			t, warnings, err := s.define(p, listed[p.Server], e)
			for _, w := range warnings {
				problems = append(problems, s.problem(e, w, false))
			}
			if err != nil {
				problems = append(problems, catalog.Problem{Tool: p.Name, Place: e.Place.String(), Err: err})
				continue
			}
			picks[p.Name] = pick{server: p.Server, entry: e, timeout: t.Timeout}
			tools = append(tools, t)
		}
	}
	v, keepable := s.src.Validity(l)
	keepable = keepable && !held
	var kept []KeptTool
	for _, t := range tools {
		if !keepable {
			break
		}
		kt, err := keepTool(t)
		kept, keepable = append(kept, kt), err == nil
	}
	s.mu.Lock()
	s.picks, s.problems = picks, problems
	s.kept, s.validity, s.keepable, s.listErr = kept, v, keepable, nil
	s.mu.Unlock()
	return tools, nil
}

// problem is the problem of an override or selection of e that did not
// apply. An error when the entry serves nothing for it.
func (s *server) problem(e *config.Entry, w mcptool.Warning, isErr bool) catalog.Problem {
	place := e.Place
	if p, ok := e.Pos[w.Key]; ok {
		place = p
	}
	return catalog.Problem{Tool: e.Name, Place: place.String(), Warning: !isErr,
		Err: fmt.Errorf("%s: %s: %s", e.Key(), s.name, w.Text)}
}

// Problems returns the problems of the last listing.
func (s *server) Problems() []catalog.Problem {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.problems
}

// define is the catalog's tool of one pick.
func (s *server) define(p mcptool.Pick, t mcp.Tool, e *config.Entry) (*catalog.Tool, []mcptool.Warning, error) {
	in, err := object(t.InputSchema)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: tool %q: inputSchema: %w", s.name, t.Name, err)
	}
	var out map[string]any
	if len(t.OutputSchema) > 0 {
		if out, err = object(t.OutputSchema); err != nil {
			return nil, nil, fmt.Errorf("%s: tool %q: outputSchema: %w", s.name, t.Name, err)
		}
	}
	var ann map[string]any
	if t.Annotations != nil {
		data, _ := json.Marshal(t.Annotations)
		_ = json.Unmarshal(data, &ann)
		if len(ann) == 0 {
			ann = nil
		}
	}
	m, warnings := mcptool.Merge(p.Name, mcptool.Listed{Name: t.Name, Title: t.Title, Description: t.Description,
		InputSchema: in, OutputSchema: out, Annotations: ann}, e)
	ct := &catalog.Tool{
		Definition: catalog.Definition{Name: m.Name, Summary: m.Summary, InputSchema: m.InputSchema,
			Annotations: m.Annotations, Title: m.Title, OutputSchema: m.OutputSchema, Meta: t.Meta},
		Description: m.Description,
		Examples:    m.Examples,
		Source:      s.name + "." + t.Name,
		Provenance:  m.Provenance,
	}
	entryFields(ct, e, s.cfg)
	return ct, warnings, nil
}

// entryFields sets what an entry says of each tool it serves: enabled,
// category, tags, timeout, the settings every source passes alike
// ([settings.FromEntry]), and the provenance of the entry.
func entryFields(t *catalog.Tool, e *config.Entry, srv *config.Server) {
	t.Enabled = e.Enabled()
	t.Category = e.Category
	t.Tags = append([]string(nil), e.Tags...)
	settings.FromEntry(t, e)
	switch {
	case e.Timeout != nil:
		t.Timeout = e.Timeout.Duration
	case srv.Timeout != nil:
		t.Timeout = srv.Timeout.Duration
	}
	if t.Provenance == nil {
		t.Provenance = map[string]string{}
	}
	t.Provenance["entry"] = e.Key()
	if e.Toolset && e.Place == srv.Place { // implied by [mcp_servers.NAME] alone
		t.Provenance["entry"] = "mcp_servers." + e.Server
	}
	switch { // the key the file used, as the approval prompt names it
	case e.Run != nil:
		t.Provenance["run"] = e.RunPlace()
	case e.RequiresApproval != nil:
		t.Provenance["requires_approval"] = e.RunPlace()
	}
}

// object decodes a JSON Schema object, numbers as json.Number.
func object(raw json.RawMessage) (map[string]any, error) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var m map[string]any
	if err := d.Decode(&m); err != nil {
		return nil, err
	}
	if m == nil {
		return nil, fmt.Errorf("not a JSON object")
	}
	return m, nil
}

// Call runs one round of a call (call.go), under the span "tool run".
func (s *server) Call(ctx context.Context, req catalog.CallRequest) (_ catalog.CallResult, err error) {
	ctx, span := telemetry.Start(ctx, telemetry.SpanToolRun)
	defer func() { span.End(err) }()
	s.mu.Lock()
	p, ok := s.picks[req.Tool]
	s.mu.Unlock()
	if !ok {
		return catalog.CallResult{}, fmt.Errorf("%s: %w: %q is not among the server's tools as last listed", s.name, catalog.ErrUnknownTool, req.Tool)
	}
	res, err := s.calls.round(ctx, s.src, p.server, p.timeout, req)
	if err == nil && res.Outcome.IsError() {
		res.Outcome = s.deniedOutcome(req.Tool, res.Outcome)
	}
	return res, sourceError(s.name, s.sandboxHint(err))
}

// Format leaves the rendering of arguments to the catalog.
func (s *server) Format(context.Context, string, map[string]any) (string, bool) { return "", false }

// Watch registers changed to run when the server's tools change.
func (s *server) Watch(changed func()) func() {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := s.nextW
	s.nextW++
	s.watchers[id] = changed
	return func() {
		s.mu.Lock()
		delete(s.watchers, id)
		s.mu.Unlock()
	}
}

// changed runs the watchers (internal/source/mcp calls it from a goroutine of its own).
func (s *server) changed() {
	s.mu.Lock()
	fns := make([]func(), 0, len(s.watchers))
	for _, id := range sortedKeys(s.watchers) {
		fns = append(fns, s.watchers[id])
	}
	s.mu.Unlock()
	for _, f := range fns {
		f()
	}
}

// Close ends the server (its process group, for a stdio server) and what
// its starts prepared.
func (s *server) Close() error {
	return s.src.Close()
}

// Starts returns how many times the server was started (stdio) or
// connected to (HTTP).
func (s *server) Starts() int { return s.src.Starts() }

// broken is the source of a server whose table internal/source/mcp refused: its
// listing is the error.
type broken struct {
	name string
	err  error
}

func (b *broken) Name() string                                   { return b.name }
func (b *broken) Tools(context.Context) ([]*catalog.Tool, error) { return nil, b.err }
func (b *broken) Call(context.Context, catalog.CallRequest) (catalog.CallResult, error) {
	return catalog.CallResult{}, b.err
}
func (b *broken) Format(context.Context, string, map[string]any) (string, bool) { return "", false }
func (b *broken) Watch(func()) func()                                           { return func() {} }
func (b *broken) Problems() []catalog.Problem                                   { return nil }
func (b *broken) Close() error                                                  { return nil }

// outcomeText is the text of a result's text blocks, one per line.
func outcomeText(blocks []tool.Block) string {
	var b bytes.Buffer
	for _, bl := range blocks {
		if bl.Type != tool.BlockText {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(bl.Text)
	}
	return b.String()
}
