package servers

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/toolhost/toolhost/internal/jsonclone"
	"math"
	"net/http"
	"sync"
	"time"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/internal/oauth"
	"github.com/toolhost/toolhost/internal/pin"
	"github.com/toolhost/toolhost/internal/source/internal/settings"
	"github.com/toolhost/toolhost/internal/source/mcp"
	"github.com/toolhost/toolhost/internal/source/remote"
	"github.com/toolhost/toolhost/internal/telemetry"
	"github.com/toolhost/toolhost/tool"
)

// remoteSource is the catalog.Source of one remote catalog: its tools
// from its manifest (internal/source/remote), its calls through its MCP endpoint
// with internal/source/mcp's streamable HTTP client.
type remoteSource struct {
	// fixed at creation
	name      string // "remote.NAME"
	cfg       *config.Remote
	defaults  *config.Defaults // what [defaults] says of every tool ([settings.FromRemote])
	timeout   *config.Duration // the remote's timeout, else [defaults]': the longest a call may take
	list      *remote.Source
	calls     *calls
	pins      *pin.Store     // nil: no pinning
	oauth     *oauth.Config  // the oauth table's client, nil for the defaults
	oauthOpts *oauth.Options // nil with a bearer token: no sign-in

	mu       sync.Mutex
	picks    map[string]remotePick // by served name
	problems []catalog.Problem
	endpoint string
	client   *mcp.Source // for endpoint; nil until a call needs it
	closed   bool
}

// remotePick is one served tool: its name at the provider and the
// timeout of its calls.
type remotePick struct {
	remote  string
	timeout time.Duration
}

func newRemote(r *config.Remote, d *config.Defaults, o *Options) (*remoteSource, error) {
	redactBearer(o.Audit, r.BearerTokenEnv)
	name := "remote." + r.Name
	timeout := r.Timeout
	if timeout == nil {
		timeout = d.Timeout
	}
	s := &remoteSource{name: name, cfg: r, defaults: d, timeout: timeout, calls: &calls{name: name}, pins: o.Pins}
	ro := &remote.Options{CacheDir: cacheDir(o.CacheDir, remoteCache)}
	if r.BearerTokenEnv == "" {
		oc, err := OAuthConfig(r.Key(), r.OAuth)
		if err != nil {
			return nil, err
		}
		s.oauth, s.oauthOpts = oc, oauthOptions(o)
		ro.Client = &http.Client{Transport: oauth.New(r.Name, r.URL, oc, s.oauthOpts).Transport(nil)}
	}
	s.list = remote.New(r, ro)
	return s, nil
}

// Name returns "remote.NAME".
func (s *remoteSource) Name() string { return s.name }

// Tools returns the tools of the remote's manifest (kept while fresh: see
// internal/source/remote).
func (s *remoteSource) Tools(ctx context.Context) ([]*catalog.Tool, error) {
	l, err := s.list.List(ctx)
	if err != nil {
		s.mu.Lock()
		s.picks, s.problems = nil, nil
		s.mu.Unlock()
		return nil, sourceError(s.name, err)
	}
	defs := make(map[string]json.RawMessage, len(l.Tools))
	for _, d := range l.Tools {
		defs[d.Name] = marshalDef(struct {
			Name, Remote, Summary, Description, Examples string
			InputSchema, Annotations                     map[string]any
		}{d.Name, d.Remote, d.Summary, d.Description, d.Examples, d.InputSchema, d.Annotations})
	}
	accepted, problems := pinned(s.pins, pinID(s.name, s.cfg.URL, nil), s.cfg.Place.String(), defs)
	picks := map[string]remotePick{}
	tools := make([]*catalog.Tool, 0, len(l.Tools))
	for _, d := range l.Tools {
		if !accepted[d.Name] {
			continue
		}
		t := new(catalog.Tool)
		*t = d.Tool // the provider's; the configuration may tighten it
		t.InputSchema, t.Annotations = jsonclone.Map(d.InputSchema), jsonclone.Map(d.Annotations)
		t.Source = s.name + "." + d.Remote
		t.Provenance = map[string]string{"entry": s.cfg.Key(), "summary": "remote", "parameters": "remote"}
		s.policy(t, d)
		var warning error
		settings.FromRemote(t, s.cfg, s.defaults)
		t.RateLimit, warning = s.manifestRateLimit(t.RateLimit, d)
		if warning != nil {
			problems = append(problems, catalog.Problem{Tool: d.Name, Place: s.cfg.Place.String(), Warning: true, Err: warning})
		}
		picks[d.Name] = remotePick{remote: d.Remote, timeout: t.Timeout}
		tools = append(tools, t)
	}
	for _, w := range l.Warnings {
		problems = append(problems, catalog.Problem{Place: s.cfg.Place.String(), Warning: true, Err: fmt.Errorf("%s: %s", s.cfg.Key(), w)})
	}
	s.mu.Lock()
	var old *mcp.Source
	if s.endpoint != l.Endpoint {
		old, s.client = s.client, nil // the manifest moved the endpoint: calls go to the new one
	}
	s.picks, s.problems, s.endpoint = picks, problems, l.Endpoint
	s.mu.Unlock()
	if old != nil {
		go old.Close() // calls under way end with it
	}
	return tools, nil
}

// policy sets t's run mode and timeout: the user's (the remote's table,
// else [defaults]), which the provider's manifest may tighten and never
// loosen. requires_approval in the manifest makes an unattended tool ask.
// Its timeout_seconds counts only when shorter than the user's timeout.
func (s *remoteSource) policy(t *catalog.Tool, d remote.Definition) {
	mode := s.cfg.RunMode()
	if d.RequiresApproval {
		mode = config.StricterRun(mode, config.RunAsk)
	}
	t.Run = catalog.RunMode(mode)
	t.RequiresApproval = t.Run == catalog.RunAsk
	if p := s.cfg.RunPlace(); p != "" {
		t.Provenance["run"] = p
	}
	t.Timeout = d.Timeout
	if s.timeout != nil && (t.Timeout == 0 || s.timeout.Duration < t.Timeout) {
		t.Timeout = s.timeout.Duration
	}
}

// manifestRateLimit is the rate limit of d's tool: the stricter of the
// manifest's metadata.rate_limit_per_minute (a toolhost provider sends
// its own), which the catalog then enforces on this side too, and the
// user's, [defaults]'. A provider's 0 (no limit) lifts no limit of the user's. A
// value that is not a whole number of calls from 0 to math.MaxInt32 is a
// warning, and [defaults]' applies.
func (s *remoteSource) manifestRateLimit(user tool.RateLimit, d remote.Definition) (tool.RateLimit, error) {
	v, ok := d.Metadata["rate_limit_per_minute"]
	if !ok {
		return user, nil
	}
	if n, ok := v.(float64); ok && n >= 0 && n <= math.MaxInt32 && n == math.Trunc(n) {
		return stricterLimit(user, tool.RateLimit(n)), nil
	}
	return user, fmt.Errorf("%s: tool %q: metadata.rate_limit_per_minute is %v, not a whole number of calls per minute from 0 to %d; left out",
		s.cfg.Key(), d.Remote, v, math.MaxInt32)
}

// stricterLimit is the stricter of two rate limits, 0 meaning none.
func stricterLimit(a, b tool.RateLimit) tool.RateLimit {
	if a == 0 || (b != 0 && b < a) {
		return b
	}
	return a
}

// Problems returns the warnings of the last listing.
func (s *remoteSource) Problems() []catalog.Problem {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.problems
}

// Call runs one round of a call through the remote's MCP endpoint, under
// the span "tool run".
func (s *remoteSource) Call(ctx context.Context, req catalog.CallRequest) (_ catalog.CallResult, err error) {
	ctx, span := telemetry.Start(ctx, telemetry.SpanToolRun)
	defer func() { span.End(err) }()
	s.mu.Lock()
	p, ok := s.picks[req.Tool]
	client, err := s.clientLocked()
	s.mu.Unlock()
	if !ok {
		return catalog.CallResult{}, fmt.Errorf("%s: %w: %q is not among the remote's tools as last listed", s.name, catalog.ErrUnknownTool, req.Tool)
	}
	if err != nil {
		return catalog.CallResult{}, sourceError(s.name, err)
	}
	res, err := s.calls.round(ctx, client, p.remote, p.timeout, req)
	return res, sourceError(s.name, err)
}

// clientLocked returns the MCP client of the endpoint, made on first
// need, and again when the manifest moved the endpoint. s.mu is held.
func (s *remoteSource) clientLocked() (*mcp.Source, error) {
	if s.closed {
		return nil, fmt.Errorf("%s: the catalog is closed", s.name)
	}
	if s.client != nil {
		return s.client, nil
	}
	spec := mcp.Spec{Name: s.cfg.Name, URL: s.endpoint, Headers: s.cfg.Headers, BearerEnv: s.cfg.BearerTokenEnv}
	if s.cfg.Timeout != nil {
		spec.CallTimeout = s.cfg.Timeout.Duration
	}
	spec.OAuth = s.oauth
	c, err := mcp.New(spec, &mcp.Options{OAuth: s.oauthOpts})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.name, err)
	}
	s.client = c
	return c, nil
}

// Format leaves the rendering of arguments to the catalog.
func (s *remoteSource) Format(context.Context, string, map[string]any) (string, bool) {
	return "", false
}

// Watch: a manifest changes only when it is read again.
func (s *remoteSource) Watch(func()) func() { return func() {} }

// Close closes the connection to the endpoint.
func (s *remoteSource) Close() error {
	s.mu.Lock()
	c := s.client
	s.client, s.closed = nil, true
	s.mu.Unlock()
	if c != nil {
		return c.Close()
	}
	return nil
}
