package mcp

import (
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/toolhost/toolhost/internal/invoke/sandbox"
	"github.com/toolhost/toolhost/internal/oauth"
)

// Defaults applied by [New] to the zero fields of a [Spec] and [Options].
const (
	DefaultStartTimeout = 30 * time.Second // start, initialize and first listing
	DefaultCallTimeout  = 60 * time.Second // one tools/call
	DefaultGrace        = 2 * time.Second  // after a timeout or Close, before the group is killed
	DefaultIdleTimeout  = 5 * time.Minute  // a connection with no call for this long is closed
	DefaultMaxAge       = 24 * time.Hour   // a cached listing without ttlMs is trusted this long
	DefaultMaxBackoff   = 10 * time.Second // the longest wait before a restart
	DefaultMaxNotices   = 10_000           // notifications one call may receive
)

// Spec describes one MCP server: either a command started over stdio
// (Command set) or a streamable HTTP endpoint (URL set), never both. It is
// plain data, so that configuration decodes into it. The zero durations
// take the defaults above.
type Spec struct {
	// Name names the server in errors, the cache and the catalog
	// (source "mcp.NAME"). Required.
	Name string

	// Command is the program of a stdio server, looked up in PATH; Args
	// its arguments. Env adds KEY=VALUE pairs to toolhost's environment
	// for it, and Dir is its working directory ("" for toolhost's).
	Command string
	Args    []string
	Env     []string
	Dir     string

	// Sandbox confines a stdio server (see invoke.Spec.Sandbox), nil or
	// off runs it unconfined. Root is the workspace root its rules are
	// relative to ("" for Dir). Confinement below must describe it.
	Sandbox *sandbox.Policy
	Root    string

	// URL is the endpoint of a streamable HTTP server. Headers are sent
	// with each request. BearerEnv names an environment variable whose
	// value is sent as "Authorization: Bearer <value>". It is read when a
	// connection opens and never stored (nor written to the cache).
	URL       string
	Headers   map[string]string
	BearerEnv string

	// OAuth is how toolhost signs in to an HTTP server that asks for
	// OAuth 2.1 authorization (a 401 with a Bearer challenge), nil the
	// defaults of the oauth package. A server with BearerEnv or an
	// Authorization header is never signed in to.
	OAuth *oauth.Config

	// Confinement describes how Sandbox confines a stdio server
	// (the host's sandbox mode and access rules, in any stable text): it
	// is part of the listing cache's key. So a server whose confinement
	// changed is asked again rather than served from a listing it made
	// under other rules. "" when it is not confined by the host.
	Confinement string

	// ProtocolVersion, if set, is the version offered first (e.g.
	// "2025-11-25"). By default the newest the go-sdk client speaks, and
	// the server may negotiate any older one it supports.
	ProtocolVersion string

	// StartTimeout bounds starting the server, the handshake and the
	// first listing; CallTimeout one call; Grace the wait after a timeout
	// (for an answer to a ping) and after Close (before SIGKILL).
	// IdleTimeout closes a connection with no call for that long
	// (negative: never). MaxAge is how long a cached listing that carries
	// no ttlMs is trusted without starting the server (negative: never
	// trusted, every listing asks).
	StartTimeout time.Duration
	CallTimeout  time.Duration
	Grace        time.Duration
	IdleTimeout  time.Duration
	MaxAge       time.Duration
}

// Options are the host's side of a [Source]: nil means all defaults.
type Options struct {
	// CacheDir is where listings are cached across runs (one file per
	// server, e.g. $XDG_CACHE_HOME/toolhost/mcp), "" keeps them in memory.
	CacheDir string

	// OnChange is called (from its own goroutine, never under a lock)
	// when the server's tools changed: a notifications/tools/list_changed
	// that changed the listing, or a connection that found tools other
	// than the cached ones. It is also called when a remembered failed
	// start's wait is over, so that the host lists the server again.
	OnChange func()

	// OnOfferChange is called when the server says its resources or
	// prompts changed (list_changed), nil ignores it. OnResourceUpdated
	// is called with the URI of a subscribed resource the server says
	// changed ([Source.Subscribe]). Both run on the connection's
	// goroutine: they must not block.
	OnOfferChange     func()
	OnResourceUpdated func(uri string)

	// Env, when set, returns variables (KEY=VALUE) added to a stdio
	// server's environment at each start, after Spec.Env: its secrets,
	// read then. An error fails the start with it.
	Env func() ([]string, error)

	// Log receives the server's log messages that belong to no call
	// (see [Hooks.Log]), nil drops them.
	Log func(*LogMessage)

	// MaxBackoff caps the wait between restarts after consecutive
	// failures; MaxNotices the notifications one call may receive before
	// it ends with [ErrFlood].
	MaxBackoff time.Duration
	MaxNotices int

	// Retry starts the server on first need even while a failed start
	// remembered in CacheDir backs off (see "Remembered failures" in the
	// package doc). A start that fails again is remembered as the next
	// failure. toolhost check sets it.
	Retry bool

	// Logger receives the go-sdk client's own diagnostics, nil discards.
	Logger *slog.Logger

	// OAuth is the host's side of signing in to HTTP servers: where tokens
	// are kept and whether a browser may be opened. Nil keeps tokens in
	// memory and never opens one.
	OAuth *oauth.Options
}

func (s *Spec) check() error {
	switch {
	case s.Name == "":
		return errors.New("mcp: the server has no name: give it one (the NAME of [mcp_servers.NAME])")
	case s.Command == "" && s.URL == "":
		return fmt.Errorf("mcp: server %q has neither a command nor a url: set command (stdio) or url (streamable HTTP)", s.Name)
	case s.Command != "" && s.URL != "":
		return fmt.Errorf("mcp: server %q has both a command and a url: keep one", s.Name)
	case s.URL != "" && (len(s.Args) > 0 || len(s.Env) > 0 || s.Dir != ""):
		return fmt.Errorf("mcp: server %q has a url and args/env/dir, which only a command uses: remove them", s.Name)
	case s.URL == "" && (len(s.Headers) > 0 || s.BearerEnv != ""):
		return fmt.Errorf("mcp: server %q has headers or a bearer token without a url: remove them", s.Name)
	}
	return nil
}

func (s *Spec) defaults() {
	def := func(d *time.Duration, v time.Duration) {
		if *d == 0 {
			*d = v
		}
	}
	def(&s.StartTimeout, DefaultStartTimeout)
	def(&s.CallTimeout, DefaultCallTimeout)
	def(&s.Grace, DefaultGrace)
	def(&s.IdleTimeout, DefaultIdleTimeout)
	def(&s.MaxAge, DefaultMaxAge)
}
