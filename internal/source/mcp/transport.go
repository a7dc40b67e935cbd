package mcp

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolhost/toolhost/internal/invoke"
)

// transport returns the go-sdk transport for one connection: the pipes of
// a freshly started process (stdio), or a streamable HTTP client whose
// requests carry the spec's headers and bearer token.
func (s *Source) transport() (mcp.Transport, *process, error) {
	if s.spec.Command != "" {
		p, err := startProcess(&s.spec, s.opts.Env)
		if err != nil {
			fix := s.startFix(err)
			var fe *fixedError
			if errors.As(err, &fe) && !NotFound(err) {
				fix = fe.fix
			}
			return nil, nil, &Error{Source: s.spec.Name, Op: "start", Err: fmt.Errorf("%w: %w", ErrStart, err), Fix: fix}
		}
		if s.started != nil {
			s.started(p.pgid)
		}
		return &tap{Transport: &stdioTransport{r: p.stdout, w: p.stdin}, s: s}, p, nil
	}
	h := http.Header{}
	for k, v := range s.spec.Headers {
		h.Set(k, v)
	}
	if name := s.spec.BearerEnv; name != "" {
		token := os.Getenv(name)
		if token == "" {
			return nil, nil, &Error{Source: s.spec.Name, Op: "start", Err: fmt.Errorf("%w: $%s", ErrNoToken, name),
				Fix: fmt.Sprintf("export %s=<token> before starting toolhost", name)}
		}
		h.Set("Authorization", "Bearer "+token)
	}
	t := &mcp.StreamableClientTransport{
		Endpoint:   s.spec.URL,
		HTTPClient: &http.Client{Transport: &headerTransport{base: http.DefaultTransport, header: h, origin: originOf(s.spec.URL), s: s}},
	}
	if s.auth != nil {
		t.OAuthHandler = s.auth
	}
	return t, nil, nil
}

// hasAuthorization reports whether the headers carry a credential of
// their own, which OAuth must not replace.
func hasAuthorization(h map[string]string) bool {
	for k := range h {
		if strings.EqualFold(k, "Authorization") {
			return true
		}
	}
	return false
}

// startFix is what to do about a stdio server that did not start with
// err: for a program that is not there ([NotFound]), install it or point
// command at it.
func (s *Source) startFix(err error) string {
	if !NotFound(err) {
		return fmt.Sprintf("check that %q is installed and on PATH, or give its full path as command", s.spec.Command)
	}
	if strings.Contains(s.spec.Command, "/") {
		return fmt.Sprintf("install the server at %s, or give the full path of the installed program as command", lookupName(&s.spec))
	}
	return fmt.Sprintf("install %s (e.g. npm install -g PACKAGE, pip install PACKAGE) so that it is on PATH, "+
		"or give the full path of the installed program as command", s.spec.Command)
}

// NotFound reports whether err says that a stdio server's program is not
// there. It may not be on PATH (exec.ErrNotFound). There may be no file at
// the command's path (ENOENT looking it up). Or exec itself may give
// ENOENT, when the file or the interpreter its #! line names is missing. A sandbox cannot be why.
func NotFound(err error) bool {
	if errors.Is(err, exec.ErrNotFound) || errors.Is(err, invoke.ErrNotFound) {
		return true
	}
	var xe *exec.Error
	if errors.As(err, &xe) {
		return errors.Is(xe.Err, fs.ErrNotExist)
	}
	var pe *fs.PathError
	return errors.As(err, &pe) && pe.Op == "fork/exec" && errors.Is(pe.Err, fs.ErrNotExist)
}

// headerTransport adds fixed headers to every request to the endpoint's
// origin, removes the Authorization header of requests to any other, and
// taps the event streams of the responses ([sseTap]).
//
// The headers, the bearer token among them, go to that origin only. The
// http.Client follows a redirect through this transport. A server that
// answers 307 with another host's address must not receive them there.
// The client's own rule drops Authorization on such a redirect. But it
// sees only the headers of the request it was given, not those added here.
type headerTransport struct {
	base   http.RoundTripper
	header http.Header
	origin string // scheme://host:port of the endpoint
	s      *Source
}

// originOf is the scheme, host and port of raw, lower case, with the
// scheme's default port made explicit, "" when raw does not parse.
func originOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return ""
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[strings.ToLower(u.Scheme)]
	}
	return strings.ToLower(u.Scheme + "://" + net.JoinHostPort(u.Hostname(), port))
}

func (t *headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	same := t.origin != "" && originOf(r.URL.String()) == t.origin
	switch {
	case len(t.header) > 0 && same:
		r = r.Clone(r.Context())
		for k, v := range t.header {
			r.Header[k] = v
		}
	case !same && r.Header.Get("Authorization") != "":
		// The OAuth token, which the SDK sets on the request itself: a
		// redirect to another port of the same host would keep it.
		r = r.Clone(r.Context())
		r.Header.Del("Authorization")
	}
	resp, err := t.base.RoundTrip(r)
	switch {
	case err != nil:
	case strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream"):
		resp.Body = &sseTap{ReadCloser: resp.Body, s: t.s} // the SDK bounds each event
	default:
		resp.Body = &capBody{ReadCloser: resp.Body, left: MaxMessageBytes}
	}
	return resp, err
}

// MaxMessageBytes bounds one message a server sends: a line over stdio
// (the SDK's own bound, which stdioTransport keeps), and a JSON response
// body over streamable HTTP, which the SDK reads whole without one.
const MaxMessageBytes = mcp.DefaultMaxLineLength

// errTooLarge is the read error of a response body over MaxMessageBytes.
var errTooLarge = fmt.Errorf("the server's response is larger than %d MiB", MaxMessageBytes>>20)

// capBody fails a response body's read once more than left bytes came.
type capBody struct {
	io.ReadCloser
	left int
}

func (b *capBody) Read(p []byte) (int, error) {
	if b.left < 0 {
		return 0, errTooLarge
	}
	if len(p) > b.left+1 {
		p = p[:b.left+1]
	}
	n, err := b.ReadCloser.Read(p)
	b.left -= n
	if b.left < 0 {
		return 0, errTooLarge
	}
	return n, err
}

// commandPath resolves a stdio spec's command as the process will: a name
// with a slash is a path (relative to Dir), anything else is looked up in
// PATH.
func commandPath(spec *Spec) (string, error) {
	return exec.LookPath(lookupName(spec))
}

// lookupName is the name the server's program is looked up by: its
// command, below Dir when it is a relative path.
func lookupName(spec *Spec) string {
	name := spec.Command
	if spec.Dir != "" && strings.Contains(name, "/") && !filepath.IsAbs(name) {
		name = filepath.Join(spec.Dir, name)
	}
	return name
}
