package remote

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/internal/oauth"
)

// ManifestPath is where a provider serves its manifest, below its URL.
const ManifestPath = "/api/v1/tools"

// DefaultTimeout bounds one manifest request when [config.Remote].Timeout
// is unset.
const DefaultTimeout = 10 * time.Second

// Options configures [New]. A nil *Options means the zero value.
type Options struct {
	// CacheDir is where manifests are kept across processes, one file per
	// remote. If empty, the manifest is kept in memory only.
	CacheDir string
	// Client makes the requests. If nil, a client of its own (the
	// transport of http.DefaultTransport).
	Client *http.Client
	// Getenv reads the variable named by bearer_token_env. If nil,
	// os.Getenv.
	Getenv func(string) string
	// Now is the clock of freshness. If nil, time.Now.
	Now func() time.Time
}

// Source reads one remote's manifest: from memory or the disk cache while
// it is fresh (Cache-Control: max-age), otherwise from the provider,
// revalidating with If-None-Match when it has an ETag. A provider that
// cannot be read leaves the last manifest served, stale, with a warning.
// It is safe for concurrent use. Concurrent [Source.List] calls share one
// request.
//
// # Trade-offs
//
// One manifest per remote, kept until a newer one is read. Nothing is
// evicted. A Cache-Control without max-age (or without Cache-Control) is
// fresh for no time: every listing revalidates, cheaply with an ETag.
type Source struct {
	r      config.Remote // fixed at creation
	o      Options
	file   string // the cache file; "" with no CacheDir
	loaded bool   // the disk cache was read (or there is none)

	fetch sync.Mutex // held for a request, so concurrent callers share it

	mu  sync.Mutex
	cur *entry // the last manifest read; nil before any
}

// New returns the source of r's manifest. r is copied.
func New(r *config.Remote, opts *Options) *Source {
	s := &Source{r: *r}
	if opts != nil {
		s.o = *opts
	}
	if s.o.Client == nil {
		s.o.Client = &http.Client{}
	}
	c := *s.o.Client
	c.CheckRedirect = s.keepHeaders(c.CheckRedirect)
	s.o.Client = &c
	if s.o.Getenv == nil {
		s.o.Getenv = os.Getenv
	}
	if s.o.Now == nil {
		s.o.Now = time.Now
	}
	if s.o.CacheDir != "" {
		s.file = cacheFile(s.o.CacheDir, r)
	}
	return s
}

// Listing is a remote's tools at one moment.
type Listing struct {
	Remote   string    // the [remotes.NAME]
	Manifest *Manifest // as the provider sent it (tools left out by Decode excepted)
	// Tools are the manifest's tools the remote serves (include,
	// exclude), named with its prefix, in the manifest's order.
	Tools []Definition
	// Endpoint is where calls go: the MCP endpoint of the provider
	// ([Source.Endpoint]).
	Endpoint  string
	FetchedAt time.Time // when the provider last sent or confirmed the manifest
	// Stale is true when the manifest is past its max-age and the
	// provider could not be read: Warnings says why.
	Stale    bool
	Warnings []string // stale, tools left out, include naming no tool
}

// URL returns the manifest's URL: the remote's url + [ManifestPath].
func (s *Source) URL() string {
	return strings.TrimRight(s.r.URL, "/") + ManifestPath
}

// Endpoint returns the MCP streamable HTTP endpoint calls through the
// remote use: the manifest's scenario.base_url when it is on the same
// origin (scheme, host, port) as the remote's url, else the url, with
// "/mcp" appended. A base_url on another origin is ignored: the bearer
// token goes only where the configuration says.
func (s *Source) Endpoint(m *Manifest) string {
	base := strings.TrimRight(s.r.URL, "/")
	if m != nil && m.Scenario.BaseURL != "" && sameOrigin(m.Scenario.BaseURL, s.r.URL) {
		base = strings.TrimRight(m.Scenario.BaseURL, "/")
	}
	return base + "/mcp"
}

func sameOrigin(a, b string) bool {
	ua, err1 := url.Parse(a)
	ub, err2 := url.Parse(b)
	return err1 == nil && err2 == nil && ua.Scheme == ub.Scheme && strings.EqualFold(ua.Host, ub.Host) && ua.User == nil
}

// keepHeaders returns the redirect policy of the remote's requests: next,
// after the configured headers and Authorization are taken off a request
// redirected to another origin (scheme, host or port). The HTTP client
// drops Authorization itself only on a redirect to another host (not to
// another port, nor to a subdomain) and keeps every other header, an API
// key in headers among them.
func (s *Source) keepHeaders(next func(*http.Request, []*http.Request) error) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		if len(via) > 0 && origin(req.URL) != origin(via[0].URL) {
			req.Header.Del("Authorization")
			for k := range s.r.Headers {
				req.Header.Del(k)
			}
		}
		if next != nil {
			return next(req, via)
		}
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		return nil
	}
}

// origin is u's scheme, host and port, lower case, the scheme's default
// port made explicit.
func origin(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[strings.ToLower(u.Scheme)]
	}
	return strings.ToLower(u.Scheme + "://" + net.JoinHostPort(u.Hostname(), port))
}

// Header returns the headers every request to the remote carries, its
// manifest's and its calls': the configured headers and, with
// bearer_token_env, Authorization: Bearer and the variable's value. A
// variable that is unset or empty is an [*Error].
func (s *Source) Header() (http.Header, error) {
	h := http.Header{}
	for k, v := range s.r.Headers {
		h.Set(k, v)
	}
	if v := s.r.BearerTokenEnv; v != "" {
		token := s.o.Getenv(v)
		if token == "" {
			return nil, s.errorf(ErrNoToken, "set %s to the provider's token (bearer_token_env of [%s])", v, s.r.Key())
		}
		h.Set("Authorization", "Bearer "+token)
	}
	return h, nil
}

// List returns the remote's tools: the kept manifest while it is fresh
// (no request), else the provider's answer. When the provider cannot be
// read or its answer is not a manifest, the last manifest kept (in memory
// or on disk) is served with Stale set and a warning. With none, the
// error is an [*Error] naming the remote, the URL, the cause and the fix.
func (s *Source) List(ctx context.Context) (*Listing, error) {
	if l := s.fresh(); l != nil {
		return l, nil
	}
	s.fetch.Lock()
	defer s.fetch.Unlock()
	if l := s.fresh(); l != nil { // another caller's request just answered
		return l, nil
	}
	s.mu.Lock()
	old := s.cur
	s.mu.Unlock()
	e, err := s.request(ctx, old)
	if err != nil {
		if old == nil {
			return nil, err
		}
		l := s.listing(old)
		l.Stale = true
		l.Warnings = append([]string{fmt.Sprintf("serving the manifest read at %s: %v", old.FetchedAt.UTC().Format(time.RFC3339), err)}, l.Warnings...)
		return l, nil
	}
	s.mu.Lock()
	s.cur = e
	s.mu.Unlock()
	var warn []string
	if s.file != "" && !e.noStore {
		if err := writeCache(s.file, e); err != nil {
			warn = append(warn, fmt.Sprintf("cannot keep the manifest in %s: %v", s.file, err))
		}
	}
	l := s.listing(e)
	l.Warnings = append(l.Warnings, warn...)
	return l, nil
}

// fresh returns the listing of the kept manifest when it is fresh,
// reading the disk cache the first time.
func (s *Source) fresh() *Listing {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.loaded {
		s.loaded = true
		if s.file != "" {
			if e, err := readCache(s.file, s.URL()); err == nil {
				s.cur = e
			}
		}
	}
	if s.cur == nil || !s.o.Now().Before(s.cur.FetchedAt.Add(s.cur.MaxAge)) {
		return nil
	}
	return s.listing(s.cur)
}

// request asks the provider for the manifest, revalidating old.
func (s *Source) request(ctx context.Context, old *entry) (*entry, error) {
	h, err := s.Header()
	if err != nil {
		return nil, err
	}
	timeout := DefaultTimeout
	if s.r.Timeout != nil {
		timeout = s.r.Timeout.Duration
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.URL(), nil)
	if err != nil {
		return nil, s.errorf(err, "check url in [%s]", s.r.Key())
	}
	req.Header = h
	req.Header.Set("Accept", "application/json")
	if old != nil && old.ETag != "" {
		req.Header.Set("If-None-Match", old.ETag)
	}
	resp, err := s.o.Client.Do(req)
	if oe := (*oauth.Error)(nil); errors.As(err, &oe) {
		return nil, s.errorf(err, "%s", oe.Fix) // signing in failed (Options.Client signs in)
	}
	if err != nil {
		return nil, s.errorf(err, "check that the provider is running and reachable at %s (toolhost serve --http serves one)", s.r.URL)
	}
	defer resp.Body.Close()
	now := s.o.Now()
	maxAge, noStore := cacheControl(resp.Header.Get("Cache-Control"))
	switch {
	case resp.StatusCode == http.StatusNotModified && old != nil:
		e := *old
		e.FetchedAt, e.MaxAge, e.noStore = now, maxAge, noStore
		if et := resp.Header.Get("ETag"); et != "" {
			e.ETag = et
		}
		return &e, nil
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		fix := fmt.Sprintf("set bearer_token_env in [%s] to the variable holding the provider's token", s.r.Key())
		if s.r.BearerTokenEnv != "" {
			fix = fmt.Sprintf("check the token in %s (bearer_token_env of [%s])", s.r.BearerTokenEnv, s.r.Key())
		}
		return nil, s.errorf(fmt.Errorf("%w: %s", ErrStatus, resp.Status), "%s", fix)
	case resp.StatusCode == http.StatusNotFound:
		return nil, s.errorf(fmt.Errorf("%w: %s", ErrStatus, resp.Status), "check url in [%s]: it should be the provider's base URL, which serves %s", s.r.Key(), ManifestPath)
	case resp.StatusCode != http.StatusOK:
		return nil, s.errorf(fmt.Errorf("%w: %s", ErrStatus, resp.Status), "retry later, or ask the provider's operator")
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxManifestBytes+1))
	if err != nil {
		return nil, s.errorf(err, "retry later, or ask the provider's operator")
	}
	m, err := Decode(body)
	if err != nil {
		return nil, s.errorf(err, "check that url in [%s] points at a Tool Discovery Protocol provider", s.r.Key())
	}
	return &entry{Manifest: m, url: s.URL(), raw: body, ETag: resp.Header.Get("ETag"), FetchedAt: now, MaxAge: maxAge, noStore: noStore}, nil
}

// cacheControl returns a response's max-age (0 when it has none, or says
// no-cache) and whether it says no-store.
func cacheControl(v string) (maxAge time.Duration, noStore bool) {
	noCache := false
	for d := range strings.SplitSeq(v, ",") {
		d = strings.ToLower(strings.TrimSpace(d))
		switch {
		case d == "no-store":
			noStore = true
		case d == "no-cache":
			noCache = true
		case strings.HasPrefix(d, "max-age="):
			if n, err := strconv.ParseInt(strings.Trim(d[len("max-age="):], `"`), 10, 64); err == nil && n > 0 {
				maxAge = time.Duration(min(n, int64(365*24*time.Hour/time.Second))) * time.Second
			}
		}
	}
	if noCache || noStore {
		maxAge = 0
	}
	return maxAge, noStore
}

// listing converts a kept manifest into the remote's definitions.
func (s *Source) listing(e *entry) *Listing {
	m := e.Manifest
	l := &Listing{
		Remote:    s.r.Name,
		Manifest:  m,
		Endpoint:  s.Endpoint(m),
		FetchedAt: e.FetchedAt,
		Warnings:  slices.Clone(m.Warnings),
	}
	offered := make([]string, len(m.Tools))
	for i, t := range m.Tools {
		offered[i] = t.Name
	}
	for _, list := range []struct {
		key   string
		names []string
	}{{"include", s.r.Include}, {"exclude", s.r.Exclude}} {
		for _, n := range list.names {
			if !slices.Contains(offered, n) {
				l.Warnings = append(l.Warnings, fmt.Sprintf("%s (%s) names %q; the provider offers %s", list.key, s.r.Pos[list.key], n, quoteList(offered)))
			}
		}
	}
	for _, t := range m.Tools {
		if s.r.Include != nil && !slices.Contains(s.r.Include, t.Name) || slices.Contains(s.r.Exclude, t.Name) {
			continue
		}
		l.Tools = append(l.Tools, define(s.r.Prefix, t))
	}
	return l
}

// Sentinel errors wrapped by [*Error].
var (
	// ErrStatus: the provider answered with an HTTP status other than 200
	// (or 304 to a revalidation).
	ErrStatus = errors.New("unexpected HTTP status")
	// ErrNoToken: the variable bearer_token_env names is unset or empty.
	ErrNoToken = errors.New("bearer token variable is unset")
)

// Error is a remote whose manifest cannot be read and of which no earlier
// manifest is kept. errors.Is sees the cause: [ErrStatus], [ErrNoToken],
// [ErrManifest], the transport's error (context.DeadlineExceeded, a
// *net.OpError...), and [catalog.ErrTimeout] when the provider did not
// answer in time.
type Error struct {
	Remote string // the [remotes.NAME]
	URL    string // the manifest's URL
	Err    error  // the cause
	Fix    string // what the user can do
}

// Error returns `remote "NAME": GET URL: cause`. The fix is in Fix.
func (e *Error) Error() string {
	return fmt.Sprintf("remote %q: GET %s: %v", e.Remote, e.URL, e.Err)
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Is reports a provider that did not answer in time as
// [catalog.ErrTimeout], as any source's timeout is.
func (e *Error) Is(target error) bool {
	if target != catalog.ErrTimeout {
		return false
	}
	var ne net.Error
	return errors.Is(e.Err, context.DeadlineExceeded) || errors.As(e.Err, &ne) && ne.Timeout()
}

func (s *Source) errorf(cause error, format string, args ...any) *Error {
	var ue *url.Error
	if errors.As(cause, &ue) { // its message repeats the method and URL
		cause = ue.Err
	}
	return &Error{Remote: s.r.Name, URL: s.URL(), Err: cause, Fix: fmt.Sprintf(format, args...)}
}

func quoteList(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	return strings.Join(q, ", ")
}
