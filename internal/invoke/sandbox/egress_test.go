package sandbox_test

import (
	"bufio"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/toolhost/toolhost/internal/invoke"
	"github.com/toolhost/toolhost/internal/invoke/egress"
	"github.com/toolhost/toolhost/internal/invoke/sandbox"
	"github.com/toolhost/toolhost/tool"
)

// The names the egress tests use resolve, in the host's proxy, to
// documentation addresses, which it dials on loopback: allowed.test is
// 127.0.0.1, other.test 127.0.0.2. rebound.test resolves to 127.0.0.1
// itself.
func init() {
	names := map[string]netip.Addr{"allowed.test": netip.MustParseAddr("192.0.2.1"), "other.test": netip.MustParseAddr("192.0.2.2"),
		"rebound.test": netip.MustParseAddr("127.0.0.1")}
	egress.Shared.Resolve = func(ctx context.Context, host string) ([]netip.Addr, error) {
		if a, ok := names[host]; ok {
			return []netip.Addr{a}, nil
		}
		return nil, fmt.Errorf("no such host %s", host)
	}
	egress.Shared.Dial = func(ctx context.Context, network, addr string) (net.Conn, error) {
		ap := netip.MustParseAddrPort(addr)
		if a := ap.Addr().As4(); a[0] == 192 && a[1] == 0 && a[2] == 2 {
			addr = netip.AddrPortFrom(netip.AddrFrom4([4]byte{127, 0, 0, a[3]}), ap.Port()).String()
		}
		return (&net.Dialer{}).DialContext(ctx, network, addr)
	}
	// http-get URL prints the body of a GET of URL by Go's HTTP client,
	// which follows HTTP_PROXY; another status than 200 is an error.
	hostile["http-get"] = func() int {
		res, err := http.Get(os.Args[2])
		if err != nil {
			return report("", err)
		}
		body, _ := io.ReadAll(res.Body)
		if res.StatusCode != http.StatusOK {
			return report("", fmt.Errorf("%s: %s", res.Status, strings.TrimSpace(string(body))))
		}
		return report(string(body), nil)
	}
	// proxy-url prints HTTPS_PROXY.
	hostile["proxy-url"] = func() int { return report(os.Getenv("HTTPS_PROXY"), nil) }
}

// servers starts an HTTP server on 127.0.0.1 and another on 127.0.0.2,
// on the same port, each answering with its name.
func servers(t testing.TB) uint16 {
	t.Helper()
	ln1, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln1.Addr().(*net.TCPAddr).Port
	ln2, err := net.Listen("tcp", fmt.Sprintf("127.0.0.2:%d", port))
	if err != nil {
		ln1.Close()
		t.Skipf("no second loopback address: %v", err)
	}
	for ln, name := range map[net.Listener]string{ln1: "allowed", ln2: "other"} {
		srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, "hello from "+name)
		})}
		go srv.Serve(ln)
		t.Cleanup(func() { srv.Close() })
	}
	return uint16(port)
}

// TestEgressHostRule: a rule naming a host lets the tool reach that host,
// through the proxy, and no other server on the same port, by the proxy
// or directly; the call's credential ends with the call.
func TestEgressHostRule(t *testing.T) {
	needLandlock(t)
	port := servers(t)
	pol := func() *sandbox.Policy {
		return &sandbox.Policy{Mode: sandbox.ModeOn, Access: tool.Access{Net: []tool.AccessNet{{Host: "allowed.test", Port: &port, Allow: true}, {Host: "rebound.test", Port: &port, Allow: true}}}}
	}
	tests := []struct {
		name     string
		scenario string
		arg      string
		exit     int
		stdout   string
		stderr   string // its first line
		fix      string // the denial's, when the sandbox refused
	}{
		{"the granted host", "http-get", fmt.Sprintf("http://allowed.test:%d/", port), 0, "hello from allowed", "", ""},
		{"another host on the same port", "http-get", fmt.Sprintf("http://other.test:%d/", port), 1, "",
			fmt.Sprintf(`403 Forbidden: toolhost egress proxy: no access.net rule grants other.test:%d`, port),
			fmt.Sprintf(`access.net: add {host="other.test", port=%d, allow=true}`, port)},
		{"a granted name resolving to loopback", "http-get", fmt.Sprintf("http://rebound.test:%d/", port), 1, "",
			`403 Forbidden: toolhost egress proxy: rebound.test resolves to 127.0.0.1, an address of this machine or its link; a rule must name it`,
			fmt.Sprintf(`access.net: add {host="127.0.0.1", port=%d, allow=true}`, port)},
		{"another server on the same port, directly", "connect", fmt.Sprintf("127.0.0.2:%d", port), 1, "",
			fmt.Sprintf("dial tcp 127.0.0.2:%d: connect: permission denied", port), fmt.Sprintf(`access.net: add {host="127.0.0.2", port=%d, allow=true}`, port)},
		{"the granted server, directly", "connect", fmt.Sprintf("127.0.0.1:%d", port), 1, "",
			fmt.Sprintf("dial tcp 127.0.0.1:%d: connect: permission denied", port), fmt.Sprintf(`access.net: add {host="127.0.0.1", port=%d, allow=true}`, port)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t)
			res, spec, err := w.run(t, pol(), tt.scenario, tt.arg)
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			stderr, _, _ := strings.Cut(string(res.StderrTail), "\n")
			if res.ExitCode != tt.exit || string(res.Stdout) != tt.stdout || stderr != tt.stderr {
				t.Fatalf("got exit %d, stdout %q, stderr %q\nwant exit %d, stdout %q, stderr %q", res.ExitCode, res.Stdout, stderr, tt.exit, tt.stdout, tt.stderr)
			}
			if tt.fix != "" {
				if d := invoke.Denied(spec, w.ws, res); d == nil || d.Fix != tt.fix {
					t.Errorf("denial %+v, want the fix %q", d, tt.fix)
				}
			}
		})
	}
	t.Run("the host's proxy variables are replaced", func(t *testing.T) {
		w := newWorld(t)
		t.Setenv("NO_PROXY", "allowed.test")
		t.Setenv("HTTP_PROXY", "http://127.0.0.1:1")
		auto := &sandbox.Policy{Access: tool.Access{Net: []tool.AccessNet{{Host: "allowed.test", Port: &port, Allow: true}}}} // the environment passes whole
		res, _, err := w.run(t, auto, "http-get", fmt.Sprintf("http://allowed.test:%d/", port))
		if err != nil || res.ExitCode != 0 || string(res.Stdout) != "hello from allowed" {
			t.Fatalf("Run: %v, exit %d, stdout %q, stderr %q", err, res.ExitCode, res.Stdout, res.StderrTail)
		}
	})
	t.Run("the credential ends with the call", func(t *testing.T) {
		w := newWorld(t)
		res, _, err := w.run(t, pol(), "proxy-url")
		if err != nil || res.ExitCode != 0 {
			t.Fatalf("Run: %v, %+v", err, res)
		}
		token, addr, ok := strings.Cut(strings.TrimPrefix(string(res.Stdout), "http://"), "@")
		if !ok {
			t.Fatalf("HTTPS_PROXY = %q", res.Stdout)
		}
		c, err := net.DialTimeout("tcp", addr, 2*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		fmt.Fprintf(c, "CONNECT allowed.test:%d HTTP/1.1\r\nHost: allowed.test:%d\r\nProxy-Authorization: Basic %s\r\n\r\n",
			port, port, base64.StdEncoding.EncodeToString([]byte(token+":")))
		ans, err := http.ReadResponse(bufio.NewReader(c), &http.Request{Method: http.MethodConnect})
		if err != nil {
			t.Fatal(err)
		}
		if ans.StatusCode != http.StatusProxyAuthRequired {
			t.Errorf("after the call: %s, want 407", ans.Status)
		}
	})
}

// BenchmarkEgress is a sandboxed one-shot call of a tool making one HTTP
// request (a TCP connect and a small exchange), with a port rule (direct)
// and with a host rule (through the egress proxy), interleaved in the same
// iterations (the order alternates); host/port is the median of the
// iterations' ratios, steadier than the ratio of the means on a busy
// machine.
func BenchmarkEgress(b *testing.B) {
	if sandbox.ABI() < 6 {
		b.Skip("needs Landlock ABI 6")
	}
	port := servers(b)
	b.Setenv("HOME", b.TempDir())
	root := b.TempDir()
	variants := []struct {
		rule tool.AccessNet
		url  string
	}{
		{tool.AccessNet{Host: "127.0.0.1", Port: &port, Allow: true}, fmt.Sprintf("http://127.0.0.1:%d/", port)},
		{tool.AccessNet{Host: "allowed.test", Port: &port, Allow: true}, fmt.Sprintf("http://allowed.test:%d/", port)},
	}
	var spent [2]time.Duration
	var ratios []float64
	req := &tool.Request{Protocol: tool.Version, Context: tool.Context{Action: tool.ActionRun, Root: root}}
	i := 0
	for b.Loop() {
		var took [2]time.Duration
		for k := range 2 {
			v := variants[(i+k)%2]
			spec := &invoke.Spec{
				Command: []string{os.Args[0], "http-get", v.url},
				Env:     map[string]string{"FAKETOOL_PLAY": "1"},
				Sandbox: &sandbox.Policy{Mode: sandbox.ModeOn, Access: tool.Access{Net: []tool.AccessNet{v.rule}}},
			}
			start := time.Now()
			res, err := invoke.Run(b.Context(), spec, req)
			took[(i+k)%2] = time.Since(start)
			if err != nil || res.ExitCode != 0 || !strings.HasPrefix(string(res.Stdout), "hello from allowed") {
				b.Fatalf("%s: %v, exit %d, stdout %q, stderr %q", v.url, err, res.ExitCode, res.Stdout, res.StderrTail)
			}
		}
		spent[0] += took[0]
		spent[1] += took[1]
		ratios = append(ratios, float64(took[1])/float64(took[0]))
		i++
	}
	slices.Sort(ratios)
	b.ReportMetric(float64(spent[0].Microseconds())/float64(i), "port-µs/call")
	b.ReportMetric(float64(spent[1].Microseconds())/float64(i), "host-µs/call")
	b.ReportMetric(ratios[len(ratios)/2], "host/port")
}
