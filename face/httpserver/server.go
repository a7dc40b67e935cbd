package httpserver

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"time"
)

// DefaultAddr is the address served when none is given.
const DefaultAddr = "127.0.0.1:7477"

// Timeouts and limits of the server [newServer] returns.
const (
	readHeaderTimeout = 10 * time.Second
	ReadTimeout       = 30 * time.Second
	WriteTimeout      = 30 * time.Second // lifted for /mcp, which streams
	IdleTimeout       = 2 * time.Minute
	MaxHeaderBytes    = 64 << 10
	ShutdownGrace     = 5 * time.Second
)

// ListenAddr returns the address to listen on for addr as a user gives
// it: "" is [DefaultAddr], and an empty host (":8080") means the loopback
// address 127.0.0.1, never every interface. A non-loopback address is
// used only when given explicitly ("0.0.0.0:8080", "192.168.1.5:8080").
func ListenAddr(addr string) string {
	if addr == "" {
		return DefaultAddr
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return addr // net.Listen reports the error
	}
	if host == "" {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port)
}

// IsLoopback reports whether serving addr (as given to [ListenAddr])
// listens on loopback only: a loopback IP or "localhost". The CLI warns
// when it does not.
func IsLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(ListenAddr(addr))
	if err != nil {
		return false
	}
	return isLoopbackHost(host)
}

func isLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") || strings.HasSuffix(strings.ToLower(host), ".localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// Listen listens on [ListenAddr](addr).
func Listen(addr string) (net.Listener, error) {
	return net.Listen("tcp", ListenAddr(addr))
}

// newServer returns an http.Server for h with read and write timeouts and
// a header size limit (request bodies are limited by [NewHandler]).
func newServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       ReadTimeout,
		WriteTimeout:      WriteTimeout,
		IdleTimeout:       IdleTimeout,
		MaxHeaderBytes:    MaxHeaderBytes,
	}
}

// Serve serves h on ln with [newServer] until ctx is done, then shuts down:
// requests in flight get [ShutdownGrace] to finish before their
// connections are closed. It returns nil after a shutdown caused by ctx.
func Serve(ctx context.Context, ln net.Listener, h http.Handler) error {
	srv := newServer(h)
	srv.BaseContext = func(net.Listener) context.Context { return context.WithoutCancel(ctx) }
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), ShutdownGrace)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		srv.Close() // streams that outlived the grace period (MCP sessions listening)
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
