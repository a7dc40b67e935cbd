package httpserver

import (
	"fmt"
	"mime"
	"net"
	"net/http"
	"strings"

	"github.com/toolhost/toolhost/catalog"
)

// The rules every request meets before routing: its Host, its Origin and,
// for a request that carries a body, its Content-Type. docs/http.md says
// what each one stops.

// guard refuses foreign hosts and origins and bodies that are not JSON,
// for every endpoint alike, and limits request bodies.
func (h *handler) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := h.hostRefusal(r); err != nil {
			writeProblem(w, http.StatusForbidden, err)
			return
		}
		if origin := r.Header.Get("Origin"); origin != "" {
			listed := allowedOrigin(origin, h.o.AllowedOrigins)
			if !listed && !sameOrigin(origin, r) {
				writeProblem(w, http.StatusForbidden, catalog.Problem{
					Err: fmt.Errorf("origin %q is not allowed: only the server's own pages (%s) may call it", origin, ownOrigin(r)),
					Fix: "to let a page of another origin call it, list that origin in httpserver.Options.AllowedOrigins"})
				return
			}
			if listed { // a page of the server's own origin needs no CORS header
				w.Header().Set("Access-Control-Allow-Origin", origin)
			}
			w.Header().Add("Vary", "Origin")
		}
		if msg := contentTypeRefusal(r); msg != "" {
			writeError(w, http.StatusUnsupportedMediaType, msg)
			return
		}
		if r.Body != nil {
			r.Body = http.MaxBytesReader(w, r.Body, h.o.MaxBodyBytes)
		}
		next.ServeHTTP(w, r)
	})
}

// hostRefusal is the error refusing r's Host header, or nil when the Host
// names the server (the DNS rebinding defence). A Host is accepted when its
// name, without the port, is:
//
//   - the address of the listener that took the connection (an IP address
//     cannot be rebound).
//   - localhost, 127.0.0.1 or [::1] (or another loopback name) when that
//     listener is on loopback.
//   - 0.0.0.0 or [::], which a client dials to reach its own machine and
//     which, being addresses, cannot be rebound.
//   - one of [Options.AllowedHosts].
//
// The port is not compared: a forwarded port (ssh -L 9000:localhost:7477)
// names another, and a rebound name is refused whatever its port. A
// handler called without a listener (no http.LocalAddrContextKey) checks
// only the allowed hosts when some are listed.
func (h *handler) hostRefusal(r *http.Request) error {
	name := strings.ToLower(strings.Trim(hostOnly(r.Host), "[]"))
	if allowedHost(name, h.o.AllowedHosts) {
		return nil
	}
	local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok || local == nil {
		if len(h.o.AllowedHosts) == 0 {
			return nil
		}
		return catalog.Problem{Err: fmt.Errorf("host %q is not allowed: this server answers requests for %s only", r.Host, strings.Join(h.o.AllowedHosts, ", ")),
			Fix: "add the name to httpserver.Options.AllowedHosts"}
	}
	addr, _, err := net.SplitHostPort(local.String())
	if err != nil {
		addr = local.String()
	}
	loopback := isLoopbackHost(addr)
	if ip := net.ParseIP(name); ip != nil && ip.IsUnspecified() {
		return nil
	}
	if name != "" && (sameIP(name, addr) || loopback && isLoopbackHost(name)) {
		return nil
	}
	names := addr
	if ip := net.ParseIP(addr); ip != nil && ip.To4() == nil {
		names = "[" + addr + "]"
	}
	if loopback {
		names = "localhost, 127.0.0.1 or [::1]"
	}
	return catalog.Problem{Err: fmt.Errorf("host %q is not allowed: this server answers only requests that name it (%s), "+
		"so that a page whose DNS name was rebound to this address reaches nothing", r.Host, names),
		Fix: "to reach it by another name, start it with --allow-host NAME (Go: httpserver.Options.AllowedHosts)"}
}

// sameIP reports whether two host strings are the same IP address.
func sameIP(a, b string) bool {
	x, y := net.ParseIP(a), net.ParseIP(b)
	return x != nil && y != nil && x.Equal(y)
}

// allowedHost reports whether name (lower case, no port) is listed in
// allowed, where "*" accepts any.
func allowedHost(name string, allowed []string) bool {
	for _, a := range allowed {
		a = strings.ToLower(strings.Trim(hostOnly(a), "[]"))
		if a == "*" || a != "" && a == name {
			return true
		}
	}
	return false
}

// hostOnly is the host of a Host header, without its port.
func hostOnly(hostport string) string {
	if host, _, err := net.SplitHostPort(hostport); err == nil {
		return host
	}
	return hostport
}

// allowedOrigin reports whether a page at origin is listed in allowed,
// where "*" accepts any.
func allowedOrigin(origin string, allowed []string) bool {
	for _, a := range allowed {
		if a == "*" || strings.EqualFold(strings.TrimSuffix(a, "/"), origin) {
			return true
		}
	}
	return false
}

// sameOrigin reports whether a browser's Origin is the server's own. The
// server's own is the scheme it was reached with and the Host the request
// names, which [handler.hostRefusal] has accepted. They are compared as a
// whole: an origin is scheme://host[:port], nothing more. Another port of the same host is
// another origin: a page of a dev server on localhost:3000 cannot call a
// server on localhost:7477.
func sameOrigin(origin string, r *http.Request) bool {
	return r.Host != "" && strings.EqualFold(origin, ownOrigin(r))
}

// ownOrigin is the server's origin as r names it.
func ownOrigin(r *http.Request) string {
	return scheme(r) + "://" + r.Host
}

func scheme(r *http.Request) string {
	if r.TLS != nil {
		return "https"
	}
	return "http"
}

// contentTypeRefusal is the message refusing a request that may change
// state (POST, PUT, PATCH) whose body is not declared application/json, or
// "". A browser page of another origin can send text/plain and form bodies
// without asking the server first (no CORS preflight). It cannot send
// application/json. MCP clients send application/json, as the MCP
// specification requires.
func contentTypeRefusal(r *http.Request) string {
	switch r.Method {
	case http.MethodPost, http.MethodPut, http.MethodPatch:
	default:
		return ""
	}
	ct := r.Header.Get("Content-Type")
	if mt, _, err := mime.ParseMediaType(ct); err == nil && mt == "application/json" {
		return ""
	}
	if ct == "" {
		ct = "none"
	} else {
		ct = fmt.Sprintf("%q", ct)
	}
	return fmt.Sprintf("Content-Type %s is not accepted: %s %s takes a JSON body sent with Content-Type: application/json", ct, r.Method, r.URL.Path)
}
