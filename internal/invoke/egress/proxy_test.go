package egress

import (
	"bufio"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"testing"
	"time"
)

// echo serves on loopback: it answers a line with "echo: LINE", and a
// plain HTTP request with "hello from HOST".
func echo(t *testing.T) uint16 {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				br := bufio.NewReader(c)
				line, err := br.ReadString('\n')
				if err != nil {
					return
				}
				if strings.HasPrefix(line, "GET ") {
					req, err := http.ReadRequest(bufio.NewReader(io.MultiReader(strings.NewReader(line), br)))
					if err != nil {
						return
					}
					body := "hello from " + req.Host + " " + req.RequestURI + " auth=" + req.Header.Get("Proxy-Authorization")
					fmt.Fprintf(c, "HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
					return
				}
				fmt.Fprintf(c, "echo: %s", line)
			}()
		}
	}()
	return uint16(ln.Addr().(*net.TCPAddr).Port)
}

// testProxy resolves the names of the tests to documentation addresses
// (192.0.2.0/24) and dials those on loopback.
func testProxy(t *testing.T) *Proxy {
	names := map[string][]netip.Addr{
		"allowed.test": {netip.MustParseAddr("192.0.2.1")},
		"other.test":   {netip.MustParseAddr("192.0.2.2")},
		"rebound.test": {netip.MustParseAddr("192.0.2.3"), netip.MustParseAddr("127.0.0.1")},
		"link.test":    {netip.MustParseAddr("169.254.169.254")},
		"mapped.test":  {netip.MustParseAddr("::ffff:127.0.0.1")},
	}
	return &Proxy{
		Resolve: func(ctx context.Context, host string) ([]netip.Addr, error) {
			if a, ok := names[host]; ok {
				return a, nil
			}
			return nil, fmt.Errorf("no such host %s", host)
		},
		Dial: func(ctx context.Context, network, addr string) (net.Conn, error) {
			ap := netip.MustParseAddrPort(addr)
			if netip.MustParsePrefix("192.0.2.0/24").Contains(ap.Addr()) {
				addr = netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), ap.Port()).String()
			}
			return (&net.Dialer{}).DialContext(ctx, network, addr)
		},
	}
}

// proxyURL returns the proxy address and credential that env names.
func proxyURL(t *testing.T, env []string) (addr, token string) {
	t.Helper()
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "HTTPS_PROXY=http://"); ok {
			token, addr, _ = strings.Cut(v, "@")
			return addr, token
		}
	}
	t.Fatalf("no HTTPS_PROXY in %q", env)
	return "", ""
}

func TestProxy(t *testing.T) {
	port := echo(t)
	p := testProxy(t)
	rules := []Rule{{"allowed.test", port}, {"rebound.test", port}, {"link.test", port}, {"mapped.test", port}, {"127.0.0.1", port}}
	cl, err := p.Register(rules)
	if err != nil {
		t.Fatal(err)
	}
	defer cl.End()
	addr, token := proxyURL(t, cl.Env)
	if addr != fmt.Sprintf("127.0.0.1:%d", cl.Port) {
		t.Fatalf("proxy address %s, port %d", addr, cl.Port)
	}
	ended, err := p.Register(rules)
	if err != nil {
		t.Fatal(err)
	}
	_, endedToken := proxyURL(t, ended.Env)
	ended.End()
	basic := func(tok string) string { return base64.StdEncoding.EncodeToString([]byte(tok + ":")) }
	fix := func(host string) string {
		return fmt.Sprintf(`toolhost egress proxy: no access.net rule grants %s:%d`+"\nfix: "+`access.net: add {host="%s", port=%d, allow=true}`, host, port, host, port)
	}
	tests := []struct {
		name   string
		req    string // the request line, without HTTP/1.1
		auth   string // Proxy-Authorization, "" for none
		status int
		body   string // the refusal's body, or what the target answered
	}{
		{"allowed host", fmt.Sprintf("CONNECT allowed.test:%d", port), "Basic " + basic(token), 200, "echo: ping\n"},
		{"allowed host, another case and a trailing dot", fmt.Sprintf("CONNECT Allowed.TEST.:%d", port), "Basic " + basic(token), 200, "echo: ping\n"},
		{"allowed host, plain http", fmt.Sprintf("GET http://allowed.test:%d/x?y", port), "Basic " + basic(token), 200, fmt.Sprintf("hello from allowed.test:%d /x?y auth=", port)},
		{"plain http naming another host in Host", fmt.Sprintf("GET http://allowed.test:%d/", port), "Basic " + basic(token), 200, fmt.Sprintf("hello from allowed.test:%d / auth=", port)},
		{"named IP literal", fmt.Sprintf("CONNECT 127.0.0.1:%d", port), "Basic " + basic(token), 200, "echo: ping\n"},
		{"other host on the same port", fmt.Sprintf("CONNECT other.test:%d", port), "Basic " + basic(token), 403, fix("other.test")},
		{"other host, plain http", fmt.Sprintf("GET http://other.test:%d/", port), "Basic " + basic(token), 403, fix("other.test")},
		{"allowed host on another port", fmt.Sprintf("CONNECT allowed.test:%d", port+1), "Basic " + basic(token), 403,
			fmt.Sprintf(`toolhost egress proxy: no access.net rule grants allowed.test:%d`+"\nfix: "+`access.net: add {host="allowed.test", port=%d, allow=true}`, port+1, port+1)},
		{"IP literal no rule names", fmt.Sprintf("CONNECT 192.0.2.1:%d", port), "Basic " + basic(token), 403, fix("192.0.2.1")},
		{"IPv6 loopback literal", fmt.Sprintf("CONNECT [::1]:%d", port), "Basic " + basic(token), 403,
			fmt.Sprintf(`toolhost egress proxy: no access.net rule grants [::1]:%d`+"\nfix: "+`access.net: add {host="::1", port=%d, allow=true}`, port, port)},
		{"name resolving to loopback", fmt.Sprintf("CONNECT rebound.test:%d", port), "Basic " + basic(token), 403,
			fmt.Sprintf(`toolhost egress proxy: rebound.test resolves to 127.0.0.1, an address of this machine or its link; a rule must name it`+"\nfix: "+`access.net: add {host="127.0.0.1", port=%d, allow=true}`, port)},
		{"name resolving to a mapped loopback", fmt.Sprintf("CONNECT mapped.test:%d", port), "Basic " + basic(token), 403,
			fmt.Sprintf(`toolhost egress proxy: mapped.test resolves to 127.0.0.1, an address of this machine or its link; a rule must name it`+"\nfix: "+`access.net: add {host="127.0.0.1", port=%d, allow=true}`, port)},
		{"name resolving to link-local", fmt.Sprintf("CONNECT link.test:%d", port), "Basic " + basic(token), 403,
			fmt.Sprintf(`toolhost egress proxy: link.test resolves to 169.254.169.254, an address of this machine or its link; a rule must name it`+"\nfix: "+`access.net: add {host="169.254.169.254", port=%d, allow=true}`, port)},
		{"no credential", fmt.Sprintf("CONNECT allowed.test:%d", port), "", 407,
			"toolhost egress proxy: no live call has this credential (the call ended, or the client did not send the proxy URL's user)"},
		{"bad credential", fmt.Sprintf("CONNECT allowed.test:%d", port), "Basic " + basic("0123456789abcdef0123456789abcdef"), 407,
			"toolhost egress proxy: no live call has this credential (the call ended, or the client did not send the proxy URL's user)"},
		{"empty credential", fmt.Sprintf("CONNECT allowed.test:%d", port), "Basic " + basic(""), 407,
			"toolhost egress proxy: no live call has this credential (the call ended, or the client did not send the proxy URL's user)"},
		{"a call that ended", fmt.Sprintf("CONNECT allowed.test:%d", port), "Basic " + basic(endedToken), 407,
			"toolhost egress proxy: no live call has this credential (the call ended, or the client did not send the proxy URL's user)"},
		{"origin-form request", "GET /", "Basic " + basic(token), 400,
			"toolhost egress proxy: want CONNECT host:port, or a request for an absolute http:// URL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			host := strings.TrimPrefix(strings.TrimPrefix(tt.req, "CONNECT "), "GET http://")
			host, _, _ = strings.Cut(host, "/")
			if strings.Contains(tt.name, "another host in Host") {
				host = "other.test"
			}
			head := tt.req + " HTTP/1.1\r\nHost: " + host + "\r\n"
			if tt.auth != "" {
				head += "Proxy-Authorization: " + tt.auth + "\r\n"
			}
			head += "\r\n"
			if strings.HasPrefix(tt.req, "CONNECT") {
				head += "ping\n" // sent at once, before the answer
			}
			if _, err := io.WriteString(c, head); err != nil {
				t.Fatal(err)
			}
			br := bufio.NewReader(c)
			var got string
			res, err := http.ReadResponse(br, &http.Request{Method: strings.Fields(tt.req)[0]})
			if err != nil {
				t.Fatalf("reading the answer: %v", err)
			}
			if res.StatusCode == 200 && strings.HasPrefix(tt.req, "CONNECT") {
				b, _ := br.ReadString('\n')
				got = b
			} else {
				b, _ := io.ReadAll(res.Body)
				got = strings.TrimSuffix(string(b), "\n")
			}
			if res.StatusCode != tt.status || got != tt.body {
				t.Errorf("answer mismatch:\n got  %d %q\n want %d %q", res.StatusCode, got, tt.status, tt.body)
			}
			if tt.status == 407 && res.Header.Get("Proxy-Authenticate") != `Basic realm="toolhost"` {
				t.Errorf("Proxy-Authenticate = %q", res.Header.Get("Proxy-Authenticate"))
			}
		})
	}
	// The call remembers the first refusal, for the denial's fix.
	if got, want := cl.Refused(), (&Refusal{Host: "other.test", Port: port}); got == nil || *got != *want {
		t.Errorf("Refused() = %+v, want %+v", got, want)
	}
	if got := ended.Refused(); got != nil {
		t.Errorf("the ended call's Refused() = %+v, want nil", got)
	}
}

// TestRegisterEnv: every variable points at the proxy with the call's
// credential, and two calls get different credentials.
func TestRegisterEnv(t *testing.T) {
	p := &Proxy{}
	c1, err := p.Register(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c1.End()
	c2, _ := p.Register(nil)
	defer c2.End()
	env1, port := c1.Env, c1.Port
	_, tok1 := proxyURL(t, env1)
	_, tok2 := proxyURL(t, c2.Env)
	if len(tok1) != 32 || tok1 == tok2 {
		t.Fatalf("credentials %q and %q", tok1, tok2)
	}
	var want []string
	for _, k := range []string{"HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"} {
		want = append(want, fmt.Sprintf("%s=http://%s@127.0.0.1:%d", k, tok1, port))
	}
	want = append(want, "NODE_USE_ENV_PROXY=1")
	if strings.Join(env1, "\n") != strings.Join(want, "\n") {
		t.Errorf("env mismatch:\n got  %q\n want %q", env1, want)
	}
}

// TestGoClient: Go's own HTTP client, pointed at the proxy as a tool's
// would be by the variables, reaches the granted host and not another.
func TestGoClient(t *testing.T) {
	port := echo(t)
	p := testProxy(t)
	cl, err := p.Register([]Rule{{"allowed.test", port}})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.End()
	addr, token := proxyURL(t, cl.Env)
	u, err := url.Parse("http://" + token + "@" + addr)
	if err != nil {
		t.Fatal(err)
	}
	tr := &http.Transport{Proxy: http.ProxyURL(u)}
	client := &http.Client{Transport: tr}
	res, err := client.Get(fmt.Sprintf("http://allowed.test:%d/ok", port))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if want := fmt.Sprintf("hello from allowed.test:%d /ok auth=", port); string(b) != want {
		t.Errorf("body %q, want %q", b, want)
	}
	res, err = client.Get(fmt.Sprintf("http://other.test:%d/", port))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 403 {
		t.Errorf("other.test: status %d, want 403", res.StatusCode)
	}
}

// TestEndClosesTunnels: a tunnel open when its call ends is closed.
func TestEndClosesTunnels(t *testing.T) {
	port := echo(t)
	p := testProxy(t)
	cl, err := p.Register([]Rule{{"allowed.test", port}})
	if err != nil {
		t.Fatal(err)
	}
	addr, token := proxyURL(t, cl.Env)
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "CONNECT allowed.test:%d HTTP/1.1\r\nHost: allowed.test:%d\r\nProxy-Authorization: Basic %s\r\n\r\n",
		port, port, base64.StdEncoding.EncodeToString([]byte(token+":")))
	br := bufio.NewReader(c)
	res, err := http.ReadResponse(br, &http.Request{Method: http.MethodConnect})
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("CONNECT: %v %v", res, err)
	}
	cl.End()
	c.SetReadDeadline(time.Now().Add(2 * time.Second))
	if n, err := br.Read(make([]byte, 1)); err != io.EOF {
		t.Errorf("after the call ended the tunnel read %d bytes, %v; want EOF", n, err)
	}
}

// TestAnyHostRule: a rule for "*" lets every host through on its port,
// but not a name resolving to loopback.
func TestAnyHostRule(t *testing.T) {
	port := echo(t)
	p := testProxy(t)
	cl, err := p.Register([]Rule{{"*", port}})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.End()
	addr, token := proxyURL(t, cl.Env)
	for _, tt := range []struct {
		target string
		status int
	}{
		{fmt.Sprintf("other.test:%d", port), 200},
		{fmt.Sprintf("127.0.0.1:%d", port), 200},
		{fmt.Sprintf("rebound.test:%d", port), 403},
		{fmt.Sprintf("other.test:%d", port+1), 403},
	} {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(c, "CONNECT %s HTTP/1.1\r\nHost: %s\r\nProxy-Authorization: Basic %s\r\n\r\n",
			tt.target, tt.target, base64.StdEncoding.EncodeToString([]byte(token+":")))
		res, err := http.ReadResponse(bufio.NewReader(c), &http.Request{Method: http.MethodConnect})
		c.Close()
		if err != nil || res.StatusCode != tt.status {
			t.Errorf("CONNECT %s: %v %v, want %d", tt.target, res, err, tt.status)
		}
	}
}

// TestMaxConns: a call's connections through the proxy are bounded; one
// ending makes room.
func TestMaxConns(t *testing.T) {
	defer func(n int) { maxConns = n }(maxConns)
	maxConns = 2
	port := echo(t)
	p := testProxy(t)
	cl, err := p.Register([]Rule{{"allowed.test", port}})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.End()
	addr, token := proxyURL(t, cl.Env)
	connect := func() (net.Conn, int) {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(c, "CONNECT allowed.test:%d HTTP/1.1\r\nHost: allowed.test:%d\r\nProxy-Authorization: Basic %s\r\n\r\n",
			port, port, base64.StdEncoding.EncodeToString([]byte(token+":")))
		res, err := http.ReadResponse(bufio.NewReader(c), &http.Request{Method: http.MethodConnect})
		if err != nil {
			t.Fatal(err)
		}
		return c, res.StatusCode
	}
	var open []net.Conn
	for i, want := range []int{200, 200, 429} {
		c, got := connect()
		open = append(open, c)
		if got != want {
			t.Errorf("connection %d: status %d, want %d", i+1, got, want)
		}
	}
	for _, c := range open {
		c.Close()
	}
	deadline := time.Now().Add(2 * time.Second)
	for {
		c, got := connect()
		c.Close()
		if got == 200 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after closing them: status %d, want 200", got)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
