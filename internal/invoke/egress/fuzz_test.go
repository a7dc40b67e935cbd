package egress

import (
	"context"
	"io"
	"net"
	"net/netip"
	"testing"
)

// FuzzHandle feeds a connection's bytes to the proxy: it never panics
// and never dials anything but the granted target.
func FuzzHandle(f *testing.F) {
	f.Add("CONNECT allowed.test:443 HTTP/1.1\r\nHost: allowed.test:443\r\nProxy-Authorization: Basic dG9rOg==\r\n\r\n")
	f.Add("GET http://allowed.test:443/ HTTP/1.1\r\nHost: x\r\nProxy-Authorization: Basic dG9rOg==\r\nContent-Length: 3\r\n\r\nabc")
	f.Add("CONNECT [::ffff:127.0.0.1]:443 HTTP/1.1\r\nProxy-Authorization: Basic dG9rOg==\r\n\r\n")
	f.Fuzz(func(t *testing.T, in string) {
		p := &Proxy{
			Resolve: func(ctx context.Context, host string) ([]netip.Addr, error) {
				return []netip.Addr{netip.MustParseAddr("192.0.2.1")}, nil
			},
			Dial: func(ctx context.Context, network, addr string) (net.Conn, error) {
				if addr != "192.0.2.1:443" {
					t.Errorf("dialed %s", addr)
				}
				a, b := net.Pipe()
				b.Close() // a target that hangs up at once
				return a, nil
			},
			calls: map[string]*call{"tok": {rules: []Rule{{"allowed.test", 443}}, conns: map[net.Conn]struct{}{}}},
		}
		a, b := net.Pipe()
		go func() {
			io.WriteString(a, in)
			a.Close()
		}()
		go io.Copy(io.Discard, a) // the client reads the answers
		done := make(chan struct{})
		go func() { p.handle(b); close(done) }()
		<-done
	})
}
