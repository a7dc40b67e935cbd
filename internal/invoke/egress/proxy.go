package egress

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Rule grants a call TCP connections to Host on Port through the proxy.
// Host is a DNS name (matched without case and trailing dot), an IP
// literal, "localhost", or "*" for every host (a name resolving to an
// internal address still needs a rule of its own).
type Rule struct {
	Host string
	Port uint16
}

// Proxy is an egress proxy on loopback. Its zero value is ready: it
// listens from the first [Proxy.Register] on.
type Proxy struct {
	// Resolve returns a name's addresses, nil uses net.DefaultResolver.
	// Tests map names of their own here. Set it before the first Register.
	Resolve func(ctx context.Context, host string) ([]netip.Addr, error)
	// Dial connects to an address the proxy has checked, nil uses a
	// net.Dialer. Set it before the first Register.
	Dial func(ctx context.Context, network, addr string) (net.Conn, error)

	once     sync.Once
	ln       net.Listener
	startErr error

	mu    sync.Mutex
	calls map[string]*call // live calls by credential
}

// call is a live call: its rules and its connections to the proxy, which
// end with it.
type call struct {
	rules   []Rule
	conns   map[net.Conn]struct{}
	refused *Refusal
}

// Shared is the proxy of this process, shared by every call.
var Shared = &Proxy{}

// Timeouts of a connection: reading the request, dialing the target.
const (
	headerTimeout = 10 * time.Second
	dialTimeout   = 10 * time.Second
	maxHeader     = 16 << 10
)

// maxConns bounds a call's connections through the proxy at once, so
// that one tool cannot take the host's descriptors from the others.
var maxConns = 256

// start listens on 127.0.0.1, once.
func (p *Proxy) start() error {
	p.once.Do(func() {
		p.ln, p.startErr = net.Listen("tcp", "127.0.0.1:0")
		if p.startErr != nil {
			p.startErr = fmt.Errorf("egress proxy: %w", p.startErr)
			return
		}
		go p.serve(p.ln)
	})
	return p.startErr
}

// Call is one call's registration with the proxy.
type Call struct {
	// Env are the variables that point the tool's HTTP clients at the
	// proxy with the call's credential.
	Env []string
	// Port is the proxy's, the one TCP port the tool needs to connect to.
	Port uint16

	p     *Proxy
	token string
	cl    *call
}

// Refusal is a connection the proxy refused to a call because no rule
// grants it: Host and Port as the tool asked, Addr the internal address
// a granted name resolved to (invalid when that was not the reason).
type Refusal struct {
	Host string
	Port uint16
	Addr netip.Addr
}

// Register makes the credential of one call that may reach rules. The
// call ends with [Call.End].
func (p *Proxy) Register(rules []Rule) (*Call, error) {
	if err := p.start(); err != nil {
		return nil, err
	}
	var b [16]byte
	rand.Read(b[:])
	token := hex.EncodeToString(b[:])
	p.mu.Lock()
	if p.calls == nil {
		p.calls = map[string]*call{}
	}
	cl := &call{rules: append([]Rule(nil), rules...), conns: map[net.Conn]struct{}{}}
	p.calls[token] = cl
	p.mu.Unlock()
	c := &Call{Port: uint16(p.ln.Addr().(*net.TCPAddr).Port), p: p, token: token, cl: cl}
	url := fmt.Sprintf("http://%s@127.0.0.1:%d", token, c.Port)
	for _, k := range Vars {
		c.Env = append(c.Env, k+"="+url)
	}
	// Node's own fetch and http follow the variables only when asked
	// (Node 24 and later).
	c.Env = append(c.Env, "NODE_USE_ENV_PROXY=1")
	return c, nil
}

// End revokes the call's credential and closes its connections through
// the proxy.
func (c *Call) End() {
	c.p.mu.Lock()
	_, live := c.p.calls[c.token]
	delete(c.p.calls, c.token)
	conns := c.cl.conns
	c.cl.conns = nil
	c.p.mu.Unlock()
	if live {
		for conn := range conns {
			conn.Close()
		}
	}
}

// Refused returns the first connection the proxy refused to the call
// for want of a rule, nil when none.
func (c *Call) Refused() *Refusal {
	c.p.mu.Lock()
	defer c.p.mu.Unlock()
	return c.cl.refused
}

// Vars are the variables [Proxy.Register] sets to the proxy's URL: those
// curl, Go, Python, Rust's reqwest, npm and most HTTP clients read.
var Vars = []string{"HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"}

func (p *Proxy) serve(ln net.Listener) {
	for {
		c, err := ln.Accept()
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue
			}
			return
		}
		go p.handle(c)
	}
}

// refusal is why a request is not forwarded: an HTTP status, a line the
// tool's client shows, and what the user can do about it ("" when
// nothing is known). [reply] writes the fix on a line of its own.
type refusal struct {
	status int
	msg    string
	fix    string
}

func (r *refusal) Error() string { return r.msg }

// grantFix is the fix of a connection to host:port no rule grants: the
// rule to add.
func grantFix(host string, port uint16) string {
	return fmt.Sprintf(`access.net: add {host="%s", port=%d, allow=true}`, host, port)
}

// handle serves one connection: one CONNECT tunnel or one plain request.
func (p *Proxy) handle(c net.Conn) {
	defer p.untie(c)
	defer c.Close()
	c.SetReadDeadline(time.Now().Add(headerTimeout))
	lim := &limitReader{c, maxHeader}
	br := bufio.NewReader(lim)
	req, err := http.ReadRequest(br)
	if err != nil {
		return
	}
	lim.n = 1 << 62 // the header is read: the rest is the client's data
	c.SetReadDeadline(time.Time{})
	ctx, cancel := context.WithTimeout(context.Background(), dialTimeout)
	up, err := p.open(ctx, c, req)
	cancel()
	if err != nil {
		var r *refusal
		if !errors.As(err, &r) {
			r = &refusal{status: http.StatusBadGateway, msg: "toolhost egress proxy: " + err.Error()}
		}
		reply(c, r)
		return
	}
	defer up.Close()
	if req.Method == http.MethodConnect {
		io.WriteString(c, "HTTP/1.1 200 Connection established\r\n\r\n")
		splice(c, br, up)
		return
	}
	// A plain request: sent on in origin form, without the credential,
	// and the connection ends with its response. Its Host is its URL's
	// (http.ReadRequest puts it there): a Host header naming another
	// host would pick another site of a shared server.
	req.Header.Del("Proxy-Authorization")
	req.Header.Del("Proxy-Connection")
	req.Close = true
	if err := req.Write(up); err != nil {
		return
	}
	io.Copy(c, up)
}

// open checks req, read from the client c, against the rules of its
// credential and dials its target. The call's end closes c from then on.
func (p *Proxy) open(ctx context.Context, c net.Conn, req *http.Request) (net.Conn, error) {
	cl, ok, full := p.lookup(req.Header.Get("Proxy-Authorization"), c)
	if !ok {
		return nil, &refusal{status: http.StatusProxyAuthRequired, msg: "toolhost egress proxy: no live call has this credential (the call ended, or the client did not send the proxy URL's user)"}
	}
	if full {
		return nil, &refusal{status: http.StatusTooManyRequests, msg: fmt.Sprintf("toolhost egress proxy: the call has %d connections open through the proxy already; close some first", maxConns)}
	}
	hostport := req.Host
	if req.Method != http.MethodConnect {
		if req.URL == nil || req.URL.Scheme != "http" || req.URL.Host == "" {
			return nil, &refusal{status: http.StatusBadRequest, msg: "toolhost egress proxy: want CONNECT host:port, or a request for an absolute http:// URL"}
		}
		hostport = req.URL.Host
		if req.URL.Port() == "" {
			hostport = net.JoinHostPort(req.URL.Hostname(), "80")
		}
	}
	host, portStr, err := net.SplitHostPort(hostport)
	port, perr := strconv.ParseUint(portStr, 10, 16)
	if err != nil || perr != nil || port == 0 {
		return nil, &refusal{status: http.StatusBadRequest, msg: fmt.Sprintf("toolhost egress proxy: %q is not host:port", hostport)}
	}
	addrs, refused, err := p.check(ctx, cl.rules, host, uint16(port))
	if refused != nil {
		p.mu.Lock()
		if cl.refused == nil {
			cl.refused = refused
		}
		p.mu.Unlock()
	}
	if err != nil {
		return nil, err
	}
	dial := p.Dial
	if dial == nil {
		dial = (&net.Dialer{}).DialContext
	}
	var last error
	for _, a := range addrs {
		c, err := dial(ctx, "tcp", netip.AddrPortFrom(a, uint16(port)).String())
		if err == nil {
			return c, nil
		}
		last = err
	}
	return nil, last
}

// lookup returns the call whose credential auth carries (Basic, the
// credential as user name), and ties the connection c to it unless the
// call has maxConns connections already (full).
func (p *Proxy) lookup(auth string, c net.Conn) (cl *call, ok, full bool) {
	enc, ok := strings.CutPrefix(auth, "Basic ")
	if !ok {
		return nil, false, false
	}
	dec, err := base64.StdEncoding.DecodeString(strings.TrimSpace(enc))
	if err != nil {
		return nil, false, false
	}
	token, _, _ := strings.Cut(string(dec), ":")
	p.mu.Lock()
	defer p.mu.Unlock()
	cl, ok = p.calls[token]
	if !ok || token == "" {
		return nil, false, false
	}
	if len(cl.conns) >= maxConns {
		return cl, true, true
	}
	cl.conns[c] = struct{}{}
	return cl, true, false
}

// untie forgets the connection c, which has ended.
func (p *Proxy) untie(c net.Conn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, cl := range p.calls {
		delete(cl.conns, c)
	}
}

// check returns the addresses of host the rules let the call reach on
// port. An IP literal is returned only when a rule names it. A name's
// addresses are returned as the proxy resolves them. None of them is
// internal unless the rule names that address or localhost. A refusal for want of a rule is also
// returned as a Refusal.
func (p *Proxy) check(ctx context.Context, rules []Rule, host string, port uint16) ([]netip.Addr, *Refusal, error) {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	deny := &refusal{status: http.StatusForbidden, msg: "toolhost egress proxy: no access.net rule grants " + net.JoinHostPort(host, strconv.Itoa(int(port))),
		fix: grantFix(host, port)}
	if ip, err := netip.ParseAddr(host); err == nil {
		ip = ip.Unmap()
		for _, r := range rules {
			if ri, err := netip.ParseAddr(r.Host); (r.Host == "*" || err == nil && ri.Unmap() == ip) && r.Port == port {
				return []netip.Addr{ip}, nil, nil
			}
		}
		return nil, &Refusal{Host: host, Port: port}, deny
	}
	var rule *Rule
	for i, r := range rules {
		if (r.Host == "*" || strings.TrimSuffix(strings.ToLower(r.Host), ".") == host) && r.Port == port {
			rule = &rules[i]
			break
		}
	}
	if rule == nil {
		return nil, &Refusal{Host: host, Port: port}, deny
	}
	resolve := p.Resolve
	if resolve == nil {
		resolve = func(ctx context.Context, host string) ([]netip.Addr, error) {
			return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
		}
	}
	addrs, err := resolve(ctx, host)
	if err != nil {
		return nil, nil, &refusal{status: http.StatusBadGateway, msg: fmt.Sprintf("toolhost egress proxy: resolving %s: %v", host, err)}
	}
	if len(addrs) == 0 {
		return nil, nil, &refusal{status: http.StatusBadGateway, msg: fmt.Sprintf("toolhost egress proxy: %s has no address", host)}
	}
	for i, a := range addrs {
		a = a.Unmap()
		addrs[i] = a
		if internal(a) && host != "localhost" {
			return nil, &Refusal{Host: host, Port: port, Addr: a}, &refusal{status: http.StatusForbidden,
				msg: fmt.Sprintf("toolhost egress proxy: %s resolves to %s, an address of this machine or its link; a rule must name it", host, a),
				fix: grantFix(a.String(), port)}
		}
	}
	return addrs, nil, nil
}

// internal reports whether a is an address of this machine or of its
// link: loopback, link-local, unspecified or multicast.
func internal(a netip.Addr) bool {
	return a.IsLoopback() || a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast() ||
		a.IsUnspecified() || a.IsMulticast() || a.IsInterfaceLocalMulticast()
}

// reply answers a refused request with r: its message, then its fix on
// a line of its own ("fix: …"), as text/plain.
func reply(c net.Conn, r *refusal) {
	body := r.msg + "\n"
	if r.fix != "" {
		body += "fix: " + r.fix + "\n"
	}
	fmt.Fprintf(c, "HTTP/1.1 %d %s\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: %d\r\nConnection: close\r\n", r.status, http.StatusText(r.status), len(body))
	if r.status == http.StatusProxyAuthRequired {
		io.WriteString(c, "Proxy-Authenticate: Basic realm=\"toolhost\"\r\n")
	}
	io.WriteString(c, "\r\n"+body)
}

// limitReader reads at most n bytes from r.
type limitReader struct {
	r io.Reader
	n int64
}

func (l *limitReader) Read(b []byte) (int, error) {
	if l.n <= 0 {
		return 0, io.EOF
	}
	if int64(len(b)) > l.n {
		b = b[:l.n]
	}
	n, err := l.r.Read(b)
	l.n -= int64(n)
	return n, err
}

// splice copies the client c (read through cr, which holds what it sent
// after its request) and the target up both ways until both ends are done,
// or either fails.
func splice(c net.Conn, cr io.Reader, up net.Conn) {
	done := make(chan struct{}, 2)
	cp := func(dst net.Conn, src io.Reader) {
		if _, err := io.Copy(dst, src); err != nil {
			c.Close() // a side failed, or the call ended: both end
			up.Close()
		}
		if tc, ok := dst.(interface{ CloseWrite() error }); ok {
			tc.CloseWrite()
		} else {
			dst.Close()
		}
		done <- struct{}{}
	}
	go cp(c, up)
	go cp(up, cr)
	<-done
	<-done
}
