package mcp

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Tool is one tool as the server lists it. Its schemas are the server's,
// re-encoded (object keys sorted).
type Tool struct {
	Name         string               `json:"name"`
	Title        string               `json:"title,omitempty"`
	Description  string               `json:"description,omitempty"`
	InputSchema  json.RawMessage      `json:"inputSchema"`
	OutputSchema json.RawMessage      `json:"outputSchema,omitempty"`
	Annotations  *mcp.ToolAnnotations `json:"annotations,omitempty"`
	// Meta is the tool's _meta, as the server lists it: where an MCP App
	// names its ui:// resource. nil when it has none.
	Meta json.RawMessage `json:"_meta,omitempty"`
}

// Listing is a server's tools and what says how fresh they are.
type Listing struct {
	Tools []Tool `json:"tools"`
	// Skipped are the tools left out because their definition is
	// invalid (errors.Is ErrBadTool), one error each.
	Skipped []*Error `json:"-"`
	// SkippedNames are the names of Skipped, kept in the cache.
	SkippedNames []string `json:"skipped,omitempty"`

	Identity   string        `json:"identity,omitempty"`   // server/identity's server_id, where offered
	NoIdentity bool          `json:"noIdentity,omitempty"` // the server does not offer server/identity
	Hash       string        `json:"hash"`                 // sha256 of the tools as listed
	Fetched    time.Time     `json:"fetched"`              // when the server last confirmed them
	TTL        time.Duration `json:"ttl,omitempty"`        // the listing's ttlMs, where it carried one
	Scope      string        `json:"scope,omitempty"`      // its cacheScope
	Protocol   string        `json:"protocol,omitempty"`   // the protocol version it came over

	// Cached says this answer came from the cache without asking the
	// server (true), or from a live connection (false).
	Cached bool `json:"-"`
}

// Tools returns the server's tools. A cached listing that is still
// trusted (see the package doc, "Freshness") is returned without starting
// the server. Otherwise the server is started (or the live connection
// used) and asked.
func (s *Source) Tools(ctx context.Context) (*Listing, error) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil, &Error{Source: s.spec.Name, Op: "list", Err: ErrClosed}
	}
	if s.conn != nil && s.listing != nil {
		l := *s.listing
		s.mu.Unlock()
		return &l, nil
	}
	s.mu.Unlock()
	s.loadCache()
	s.mu.Lock()
	if l := s.listing; l != nil && s.trusted(l) {
		c := *l
		s.mu.Unlock()
		c.Cached = true
		return &c, nil
	}
	s.mu.Unlock()
	c, l, err := s.acquire(ctx, "list", "")
	if err != nil {
		return nil, err
	}
	s.release(c, true)
	cp := *l
	return &cp, nil
}

// loadCache reads the disk cache into the listing, once, unless a listing
// is known already.
func (s *Source) loadCache() {
	s.mu.Lock()
	if s.loaded {
		s.mu.Unlock()
		return
	}
	s.loaded = true
	s.mu.Unlock()
	l, o := s.cache.load(&s.spec)
	s.mu.Lock()
	if s.listing == nil {
		s.listing, s.origin = l, o
	}
	s.mu.Unlock()
}

// Refresh asks the server for its tools now (starting it if need be),
// whatever the cache holds, and returns the new listing.
func (s *Source) Refresh(ctx context.Context) (*Listing, error) {
	c, _, err := s.acquire(ctx, "list", "")
	if err != nil {
		return nil, err
	}
	defer s.release(c, true)
	ctx, cancel := context.WithTimeout(ctx, s.spec.StartTimeout)
	defer cancel()
	l, err := s.list(ctx, c)
	if err != nil {
		return nil, err
	}
	s.relisted(l)
	cp := *l
	return &cp, nil
}

// trusted reports whether l may be served without asking the server.
// s.mu is held.
func (s *Source) trusted(l *Listing) bool {
	until, ok := s.trustedUntil(l)
	return ok && time.Now().Before(until)
}

// trustedUntil is when l stops being trusted without asking the server,
// false when it never is.
func (s *Source) trustedUntil(l *Listing) (time.Time, bool) {
	switch {
	case l.TTL > 0:
		return l.Fetched.Add(l.TTL), true
	case s.spec.MaxAge < 0:
		return time.Time{}, false
	case s.spec.URL != "" && l.Protocol >= "2026-07-28":
		return time.Time{}, false // a remote's ttlMs 0 says: stale at once
	}
	return l.Fetched.Add(s.spec.MaxAge), true
}

// refresh brings the listing up to date on a new connection: where the
// server offers server/identity and its id is the cached one, the cached
// tools stand. Otherwise the tools are listed.
func (s *Source) refresh(ctx context.Context, c *conn) error {
	s.loadCache()
	s.mu.Lock()
	old := s.listing
	s.mu.Unlock()
	var id string
	noID := s.noProbe.Load()
	if !noID && (old == nil || !old.NoIdentity) {
		pctx, cancel := context.WithTimeout(ctx, s.spec.Grace)
		res, err := mcp.CallCustomMethod[*identityParams, *identityResult](pctx, c.cs, methodIdentity, &identityParams{})
		cancel()
		if err == nil && res.ServerID != "" {
			id = res.ServerID
		} else {
			noID = true
			if c.proc == nil && ended(c, s.spec.Grace/4) {
				// A streamable HTTP client closes its session when a
				// request is refused at the HTTP level, as an unknown
				// method may be: connect again, without the probe.
				s.noProbe.Store(true)
				return errReconnect
			}
		}
	}
	if id != "" && old != nil && old.Identity == id {
		l := *old
		l.Fetched, l.Cached = time.Now(), false
		s.setListing(&l)
		return nil
	}
	l, err := s.list(ctx, c)
	if err != nil {
		return err
	}
	l.Identity, l.NoIdentity = id, noID
	s.setListing(l)
	return nil
}

// errReconnect asks dial for a new connection.
var errReconnect = errors.New("reconnect")

// maxPages bounds the pages of one tools/list (a server that hands out
// cursors forever).
const maxPages = 1000

// Limits on a server's listing, which is outside input, over all its
// pages: the bounds of a remote catalog's manifest (internal/source/remote). A
// listing over one is refused as a whole ([ErrTooLarge]).
const (
	MaxTools        = 10000   // tools listed, valid or not
	MaxListingBytes = 8 << 20 // their definitions, as re-encoded
)

// ErrTooLarge reports that the server sent more than toolhost reads: a
// message over [MaxMessageBytes], or a listing over [MaxTools] or
// [MaxListingBytes].
var ErrTooLarge = errors.New("the server sent too much")

// list asks c for every page of tools and checks each definition, as each
// page comes: a page's decoded tools are dropped once they are checked,
// and the listing stops at its bounds.
func (s *Source) list(ctx context.Context, c *conn) (*Listing, error) {
	l := &Listing{Fetched: time.Now()}
	if res := c.cs.InitializeResult(); res != nil {
		l.Protocol = res.ProtocolVersion
	}
	h := sha256.New()
	seen := map[string]bool{}
	count, size := 0, 0
	cursor := ""
	for page := 0; ; page++ {
		if page == maxPages {
			return nil, &Error{Source: s.spec.Name, Op: "list", Err: fmt.Errorf("%w: tools/list returned more than %d pages", ErrRefused, maxPages),
				Fix: "the server's pagination does not end: report it to its authors"}
		}
		res, err := c.cs.ListTools(ctx, &mcp.ListToolsParams{Cursor: cursor})
		if err != nil {
			return nil, s.opError(ctx, c, "list", "", err)
		}
		if page == 0 && res.TTLMs > 0 {
			l.TTL = time.Duration(res.TTLMs) * time.Millisecond
		}
		if page == 0 {
			l.Scope = res.CacheScope
		}
		if count += len(res.Tools); count > MaxTools {
			return nil, s.tooLarge(fmt.Sprintf("it lists more than %d tools", MaxTools))
		}
		for _, t := range res.Tools {
			raw, _ := json.Marshal(t)
			if size += len(raw); size > MaxListingBytes {
				return nil, s.tooLarge(fmt.Sprintf("its tools' definitions are more than %d MiB", MaxListingBytes>>20))
			}
			h.Write(raw)
			h.Write([]byte{'\n'})
			tool, err := s.checkTool(t, seen)
			if err != nil {
				l.Skipped = append(l.Skipped, err)
				l.SkippedNames = append(l.SkippedNames, err.Tool)
				continue
			}
			l.Tools = append(l.Tools, tool)
		}
		if res.NextCursor == "" || res.NextCursor == cursor {
			break
		}
		cursor = res.NextCursor
	}
	l.Hash = hex.EncodeToString(h.Sum(nil))
	return l, nil
}

// tooLarge is the error of a listing over a bound; why names it.
func (s *Source) tooLarge(why string) *Error {
	return &Error{Source: s.spec.Name, Op: "list", Err: fmt.Errorf("%w: %s", ErrTooLarge, why),
		Fix: "none of the server's tools is served: its listing is over toolhost's bound; report it to the server's authors"}
}

// checkTool converts t, or says why its definition is unusable: a name
// that is empty, too long, has spaces or control characters, or repeats an
// earlier one. An input schema that is not a JSON object of type
// "object". An output schema, where given, likewise.
func (s *Source) checkTool(t *mcp.Tool, seen map[string]bool) (Tool, *Error) {
	bad := func(name, why string) (Tool, *Error) {
		return Tool{}, &Error{Source: s.spec.Name, Op: "list", Tool: name, Err: fmt.Errorf("%w: %s", ErrBadTool, why),
			Fix: "the tool is left out; report the definition to the server's authors"}
	}
	if t == nil {
		return bad("", "a null tool")
	}
	switch {
	case t.Name == "":
		return bad("", "a tool without a name")
	case len(t.Name) > 128 || strings.ContainsFunc(t.Name, func(r rune) bool { return r <= ' ' || r == 0x7f }):
		return bad(t.Name, "the name is longer than 128 bytes or has spaces or control characters")
	case seen[t.Name]:
		return bad(t.Name, "the name is listed twice")
	}
	seen[t.Name] = true
	in, err := objectSchema(t.InputSchema)
	if err != nil {
		return bad(t.Name, "inputSchema: "+err.Error())
	}
	var out json.RawMessage
	if t.OutputSchema != nil {
		if out, err = objectSchema(t.OutputSchema); err != nil {
			return bad(t.Name, "outputSchema: "+err.Error())
		}
	}
	var meta json.RawMessage
	if len(t.Meta) > 0 {
		if meta, err = json.Marshal(t.Meta); err != nil {
			return bad(t.Name, "_meta: "+err.Error())
		}
	}
	return Tool{Name: t.Name, Title: t.Title, Description: t.Description, InputSchema: in, OutputSchema: out, Annotations: t.Annotations, Meta: meta}, nil
}

// objectSchema encodes v, which must be a JSON object with "type":"object".
func objectSchema(v any) (json.RawMessage, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil || m == nil {
		return nil, fmt.Errorf("not a JSON object: %.80s", raw)
	}
	if string(m["type"]) != `"object"` {
		return nil, fmt.Errorf(`"type" is %s, want "object"`, orNone(m["type"]))
	}
	return raw, nil
}

func orNone(raw json.RawMessage) string {
	if raw == nil {
		return "missing"
	}
	return string(raw)
}

// setListing makes l the current listing, writes it to the disk cache,
// and reports a change of tools to Options.OnChange.
func (s *Source) setListing(l *Listing) {
	s.mu.Lock()
	old := s.listing
	s.listing = l
	changed := old != nil && old.Hash != l.Hash && !s.closed
	if changed && s.opts.OnChange != nil {
		s.bg.Add(1)
		go func() { defer s.bg.Done(); s.opts.OnChange() }()
	}
	s.origin = nil // until it is stored
	s.mu.Unlock()
	o, err := s.cache.store(&s.spec, l)
	if err != nil {
		s.opts.Logger.Warn("mcp: cannot write the listing cache", "server", s.spec.Name, "error", err)
	}
	s.mu.Lock()
	if s.listing == l {
		s.origin = o
	}
	s.mu.Unlock()
}

// listChanged handles notifications/tools/list_changed from the live
// connection: the tools are listed again, in the background. A burst of
// notifications costs at most two listings, not one each. Else a server
// that floods them would have each answered with a tools/list of up to
// maxPages pages. While one listing is under way, the notifications that
// come are noted, and answered by one more listing after it.
func (s *Source) listChanged(_ context.Context, req *mcp.ToolListChangedRequest) {
	s.mu.Lock()
	c := s.conn
	if c == nil || c.cs != req.Session || s.closed {
		s.mu.Unlock()
		return
	}
	if s.relisting {
		s.relistAgain = true
		s.mu.Unlock()
		return
	}
	s.relisting = true
	s.bg.Add(1)
	s.mu.Unlock()
	go func() {
		defer s.bg.Done()
		for {
			ctx, cancel := context.WithTimeout(context.Background(), s.spec.StartTimeout)
			l, err := s.list(ctx, c)
			cancel()
			if err != nil {
				s.opts.Logger.Warn("mcp: relisting after list_changed", "server", s.spec.Name, "error", err)
			} else {
				s.relisted(l)
			}
			s.mu.Lock()
			again := s.relistAgain && s.conn == c && !s.closed
			s.relistAgain = false
			if !again {
				s.relisting = false
				s.mu.Unlock()
				return
			}
			s.mu.Unlock()
		}
	}()
}

// relisted sets l, listed on a live connection, as the listing. Whether
// the server offers server/identity carries over. The old id, which names
// the old tools, does not.
func (s *Source) relisted(l *Listing) {
	s.mu.Lock()
	if old := s.listing; old != nil {
		l.NoIdentity = old.NoIdentity
	}
	s.mu.Unlock()
	s.setListing(l)
}

// opError maps an error of a request to c.
func (s *Source) opError(ctx context.Context, c *conn, op, tool string, err error) *Error {
	e := &Error{Source: s.spec.Name, Op: op, Tool: tool}
	for _, big := range []error{errFrameTooLarge, errTooLarge} { // a message over MaxMessageBytes ended the connection
		if errors.Is(err, big) {
			e.Err = fmt.Errorf("%w: %w", ErrTooLarge, big)
			e.Fix = "toolhost reads no message over this bound; report it to the server's authors"
			return e
		}
	}
	var werr *jsonrpc.Error
	select {
	case <-c.done:
	default:
		if errors.As(err, &werr) {
			e.Err = fmt.Errorf("%w: %s (code %d)", ErrRefused, werr.Message, werr.Code)
			return e
		}
	}
	if ctx.Err() != nil {
		e.Err = fmt.Errorf("%w: %w", errTimeout, context.Cause(ctx))
		return e
	}
	if errors.Is(err, mcp.ErrConnectionClosed) || ended(c, s.spec.Grace) {
		status := "the connection closed: " + err.Error()
		if c.proc != nil {
			if exited(c.proc, s.spec.Grace) {
				status = c.proc.status
			}
			e.Stderr = c.proc.stderr.String()
		}
		e.Err = fmt.Errorf("%w (%s)", ErrExited, status)
		e.Fix = "see the server's stderr for why; it is started again on the next need"
		return e
	}
	e.Err = err
	return e
}

// ended reports whether c's session ends within wait.
func ended(c *conn, wait time.Duration) bool {
	if wait <= 0 {
		select {
		case <-c.done:
			return true
		default:
			return false
		}
	}
	select {
	case <-c.done:
		return true
	case <-time.After(wait):
		return false
	}
}

// methodIdentity is toolhost's own MCP method (docs/mcp.md): the server's
// id derived from its tools. So a client can skip tools/list when it has
// not changed.
const methodIdentity = "server/identity"

type identityParams struct {
	mcp.ParamsBase
}

type identityResult struct {
	mcp.ResultBase
	ServerID        string `json:"server_id"`
	ToolsCount      int    `json:"tools_count"`
	ProtocolVersion string `json:"protocol_version"`
}

// names returns the names of l's tools, sorted.
func (l *Listing) names() []string {
	n := make([]string, len(l.Tools))
	for i, t := range l.Tools {
		n[i] = t.Name
	}
	slices.Sort(n)
	return n
}

func (l *Listing) has(name string) bool {
	return slices.ContainsFunc(l.Tools, func(t Tool) bool { return t.Name == name })
}
