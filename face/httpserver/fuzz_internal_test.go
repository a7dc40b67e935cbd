package httpserver

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/internal/dupkey"
)

// FuzzDecodeBody: any body gives arguments or an error, never a panic;
// accepted arguments are a JSON object that re-encodes, read from a body
// that holds no key twice, and the bare form reads as the envelope form.
func FuzzDecodeBody(f *testing.F) {
	for _, s := range []string{``, `{}`, `null`, `[]`, `{"arguments":{"a":1}}`, `{"arguments":null,"answers":{"q":true}}`,
		`{"arguments":{"n":12345678901234567890}}`, `{"answers":[]}`, `{"x":1}`, `{"arguments":{}} {}`, `{"arguments":"a"}`,
		`{"name":"echo","name":"nested"}`, `{"arguments":{"a":1,"\u0061":2}}`, `{"arguments":{},"arguments":{"x":1}}`, `{"a":{"b":[{"c":1,"c":2}]}}`} {
		f.Add([]byte(s), true)
		f.Add([]byte(s), false)
	}
	f.Fuzz(func(t *testing.T, data []byte, answers bool) {
		b, err := decodeBody(data, answers)
		if err != nil {
			return
		}
		if b.Arguments == nil {
			t.Fatalf("%q: nil arguments without an error", data)
		}
		if !answers && b.Answers != nil {
			t.Fatalf("%q: answers accepted on validate", data)
		}
		if err := dupkey.Check(data); err != nil {
			t.Fatalf("%q: accepted, holding a key twice: %v", data, err)
		}
		args, err := json.Marshal(b.Arguments)
		if err != nil {
			t.Fatalf("%q: arguments do not re-encode: %v", data, err)
		}
		if len(b.Arguments) > 0 {
			wrapped, err := decodeBody([]byte(`{"arguments":`+string(args)+`}`), answers)
			if err != nil || !reflect.DeepEqual(wrapped.Arguments, b.Arguments) {
				t.Fatalf("%q: arguments %s, but in the envelope %v, %v", data, args, wrapped.Arguments, err)
			}
		}
	})
}

// FuzzGuard: whatever the Host, Origin, Content-Type and method, the guard
// never panics, and a request it lets through names the listener (its
// address, or a loopback name on a loopback listener), comes from no
// other origin than the server's own, and, for a POST, declares
// application/json.
func FuzzGuard(f *testing.F) {
	for _, s := range [][4]string{
		{"127.0.0.1:7477", "", "", "GET"}, {"localhost:7477", "http://localhost:7477", "application/json", "POST"},
		{"evil.example", "", "", "GET"}, {"[::1]:80", "http://[::1]", "application/json; charset=utf-8", "POST"},
		{"192.0.2.5:8080", "http://192.0.2.5:8080", "text/plain", "POST"}, {"", "null", "", "PUT"},
		{"LOCALHOST.", "http://localhost:3000", "APPLICATION/JSON", "POST"}, {"a.localhost", "", "application/json;", "PATCH"},
	} {
		f.Add(s[0], s[1], s[2], s[3], true)
		f.Add(s[0], s[1], s[2], s[3], false)
	}
	f.Fuzz(func(t *testing.T, host, origin, contentType, method string, loopback bool) {
		local := &net.TCPAddr{IP: net.ParseIP("192.0.2.5"), Port: 8080}
		if loopback {
			local.IP = net.IPv4(127, 0, 0, 1)
		}
		h := &handler{o: Options{MaxBodyBytes: 1 << 10}}
		reached := false
		g := h.guard(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { reached = true }))
		r, err := http.NewRequestWithContext(context.WithValue(context.Background(), http.LocalAddrContextKey, local), "GET", "/tools", nil)
		if err != nil {
			t.Fatal(err)
		}
		r.Method, r.Host = method, host
		r.Header.Set("Origin", origin)
		r.Header.Set("Content-Type", contentType)
		g.ServeHTTP(httptest.NewRecorder(), r)
		if !reached {
			return
		}
		name := strings.ToLower(strings.Trim(hostOnly(host), "[]"))
		ip := net.ParseIP(name)
		switch {
		case ip != nil && (ip.Equal(local.IP) || ip.IsUnspecified()):
		case loopback && (ip != nil && ip.IsLoopback() || name == "localhost" || strings.HasSuffix(name, ".localhost")):
		default:
			t.Fatalf("Host %q reached the handler on listener %v", host, local)
		}
		if origin != "" && !strings.EqualFold(origin, "http://"+host) {
			t.Fatalf("Origin %q reached the handler with Host %q", origin, host)
		}
		if method == "POST" || method == "PUT" || method == "PATCH" {
			mt, _, _ := strings.Cut(contentType, ";")
			if !strings.EqualFold(strings.TrimSpace(mt), "application/json") {
				t.Fatalf("a %s with Content-Type %q reached the handler", method, contentType)
			}
		}
	})
}
