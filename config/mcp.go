package config

import (
	"fmt"
	"maps"
	"net"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/toolhost/toolhost/internal/config/secret"
	"github.com/toolhost/toolhost/tool"
)

// Server is one [mcp_servers.NAME] table: an MCP server whose tools
// entries serve with source = "mcp.NAME" (all its tools) or
// "mcp.NAME.TOOL" (one). A server is reached either through a command it
// is started with (stdio: Command, Args, Env, Dir, Sandbox, Access) or at
// a URL (streamable HTTP: URL, Headers, BearerTokenEnv). Exactly one of
// Command and URL is set once the layers are merged.
//
// The bearer token itself is never in the configuration: BearerTokenEnv
// names the host's environment variable that holds it.
type Server struct {
	Name    string            // the table key
	Command Command           // stdio: the program, as a string of shell words or an array
	Args    []string          // stdio: arguments after Command's
	Env     map[string]string // stdio: extra variables
	// Secrets are stdio variables whose values are read at start time
	// (env.NAME = { secret = "…" }). A name is in Env or Secrets, never both.
	Secrets map[string]secret.Ref
	Dir     string // stdio: working directory; "" means the host's

	URL            string            // streamable HTTP: the endpoint, http or https
	Headers        map[string]string // HTTP: extra request headers (never Authorization)
	BearerTokenEnv string            // HTTP: the environment variable holding the bearer token
	OAuth          *OAuth            // HTTP: how to sign in ([mcp_servers.NAME.oauth]), nil for the defaults

	// Access and Sandbox are the stdio server's access policy and sandbox
	// mode, as an entry's (docs/security.md). Stdio servers start under the
	// sandbox, as in the JP assistant. [defaults]' apply as to entries.
	Access *tool.Access
	// accessReplace names the lists this layer's access table replaces.
	accessReplace map[string]bool
	Sandbox       string

	// Prefix is prepended to the name of each tool the server serves
	// when no entry names it (all its tools, under their own names).
	Prefix string

	IdleTimeout *Duration // stop the stdio server after this long unused; nil: the source's default
	// StartTimeout bounds starting the server, its handshake and first
	// listing, nil: the source's default (30s).
	StartTimeout *Duration
	Timeout      *Duration // per call; nil: [defaults] timeout, else the source's default
	Enabled      *bool     // nil means enabled

	// Run and RequiresApproval are the run mode of the server's tools
	// (see [Server.RunMode]); [defaults]' run applies when both are nil,
	// and an entry serving the tools may set its own.
	Run              *string
	RequiresApproval *bool
	// Insecure lets a bearer token go over plain http:// to a host that
	// is not loopback, where anyone on the path can read it.
	Insecure *bool

	// Pos records where each field was set, by TOML key ("command",
	// "url", "env.NAME", "headers.NAME", ...).
	Pos map[string]Position
	// Place is the [mcp_servers.NAME] header in the first layer defining it.
	Place Position
}

// Stdio reports whether the server is started by a command (rather than
// reached at a URL).
func (s *Server) Stdio() bool { return !s.Command.IsZero() }

// Argv returns the command line of a stdio server: Command's words, then
// Args.
func (s *Server) Argv() []string {
	return append(slices.Clone(s.Command.Args), s.Args...)
}

// SandboxMode returns the sandbox mode a stdio server starts under. That
// is its sandbox, or [defaults]', and [SandboxOn] when neither sets one.
// As in JP, stdio servers start under the sandbox. SandboxMode
// returns "" for an HTTP server, which runs nothing here.
func (s *Server) SandboxMode() string {
	switch {
	case !s.Stdio():
		return ""
	case s.Sandbox == "":
		return SandboxOn
	}
	return s.Sandbox
}

// Disabled reports whether enabled = false.
func (s *Server) Disabled() bool { return s.Enabled != nil && !*s.Enabled }

// Key returns the table's name as written in TOML, mcp_servers.NAME.
func (s *Server) Key() string { return dotted([]string{"mcp_servers", s.Name}) }

// Remote is one [remotes.NAME] table: a provider of the Tool Discovery
// Protocol whose manifest (GET URL/api/v1/tools) lists tools served beside
// the local ones, called through the provider's MCP endpoint.
type Remote struct {
	Name           string            // the table key
	URL            string            // the provider's base URL, http or https
	Headers        map[string]string // extra request headers (never Authorization)
	BearerTokenEnv string            // the environment variable holding the bearer token
	OAuth          *OAuth            // how to sign in ([remotes.NAME.oauth]), nil for the defaults
	Prefix         string            // prepended to every tool name
	Include        []string          // serve only these tools (the provider's names)
	Exclude        []string          // serve all but these tools
	Timeout        *Duration         // per request and call; nil: the source's default
	Enabled        *bool             // nil means enabled
	// Run and RequiresApproval are the least strict run mode of the
	// remote's tools (see [Remote.RunMode]): a tool the provider marks
	// requires_approval is asked for even when they say "unattended".
	// [defaults]' run applies when both are nil.
	Run              *string
	RequiresApproval *bool
	Insecure         *bool // as [Server].Insecure
	// Settings are those of every tool the remote serves. Its table sets
	// the ones tagged remotes in [tool.Settings]. Pos says which are set.
	// [defaults]' apply to the others.
	tool.Settings

	Pos   map[string]Position // where each field was set, by TOML key
	Place Position            // the [remotes.NAME] header in the first layer defining it
}

// Disabled reports whether enabled = false.
func (r *Remote) Disabled() bool { return r.Enabled != nil && !*r.Enabled }

// Key returns the table's name as written in TOML, remotes.NAME.
func (r *Remote) Key() string { return dotted([]string{"remotes", r.Name}) }

var (
	serverKeys = []string{
		"command", "args", "env", "dir", "url", "headers", "bearer_token_env", "oauth",
		"sandbox", "access", "idle_timeout", "start_timeout", "timeout", "enabled", "enable", "prefix", "run", "requires_approval", "insecure",
	}
	stdioKeys  = []string{"command", "args", "env", "dir", "sandbox", "access", "idle_timeout"}
	httpKeys   = []string{"url", "headers", "bearer_token_env", "insecure", "oauth"}
	remoteKeys = append([]string{"url", "headers", "bearer_token_env", "oauth", "prefix", "include", "exclude", "timeout", "enabled", "enable",
		"run", "requires_approval", "insecure"}, settingKeys(true)...)

	envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
)

// enabledAlias returns key k of table t at path with enable, the
// [tools.NAME] spelling, read as enabled, false, with an error, when the
// table sets both.
func (d *decoder) enabledAlias(path []string, k string, t map[string]any) (string, bool) {
	if k != "enable" {
		return k, true
	}
	if _, both := t["enabled"]; both {
		d.fail(with(path, k), ErrInvalid, "%s: enable and enabled are the same key; keep one", dotted(path))
		return k, false
	}
	return "enabled", true
}

func (d *decoder) server(path []string, name string, v any) *Server {
	t, ok := d.table(path, v)
	if !ok {
		return nil
	}
	s := &Server{Name: name, Pos: map[string]Position{}, Place: d.pos(path)}
	for _, k := range sortedKeys(t) {
		p := with(path, k)
		v := t[k]
		if k, ok = d.enabledAlias(path, k, t); !ok {
			continue
		}
		switch k {
		case "command":
			s.Command = d.command(p, v)
		case "args":
			s.Args = d.strings(p, v)
		case "env":
			s.Env, s.Secrets = d.env(p, v, s.Pos)
		case "dir":
			s.Dir, _ = d.str(p, v)
		case "url":
			s.URL = d.url(p, v)
		case "headers":
			s.Headers = d.headers(p, v, s.Pos)
		case "bearer_token_env":
			s.BearerTokenEnv = d.tokenEnv(p, v)
		case "oauth":
			s.OAuth = d.oauth(p, v)
		case "sandbox":
			s.Sandbox = d.sandbox(p, v)
		case "access":
			s.Access, s.accessReplace = d.access(p, v)
		case "prefix":
			s.Prefix, _ = d.str(p, v)
		case "idle_timeout":
			s.IdleTimeout = d.duration(p, v)
		case "start_timeout":
			s.StartTimeout = d.duration(p, v)
		case "timeout":
			s.Timeout = d.duration(p, v)
		case "enabled":
			s.Enabled = d.boolPtr(p, v)
		case "run":
			s.Run = d.runValue(p, v)
		case "requires_approval":
			s.RequiresApproval = d.boolPtr(p, v)
		case "insecure":
			s.Insecure = d.boolPtr(p, v)
		default:
			d.unknown(p, serverKeys)
			continue
		}
		s.Pos[k] = d.pos(p)
	}
	return s
}

func (d *decoder) remote(path []string, name string, v any) *Remote {
	t, ok := d.table(path, v)
	if !ok {
		return nil
	}
	r := &Remote{Name: name, Pos: map[string]Position{}, Place: d.pos(path)}
	for _, k := range sortedKeys(t) {
		p := with(path, k)
		v := t[k]
		if k, ok = d.enabledAlias(path, k, t); !ok {
			continue
		}
		switch k {
		case "url":
			r.URL = d.url(p, v)
		case "headers":
			r.Headers = d.headers(p, v, r.Pos)
		case "bearer_token_env":
			r.BearerTokenEnv = d.tokenEnv(p, v)
		case "oauth":
			r.OAuth = d.oauth(p, v)
		case "prefix":
			r.Prefix, _ = d.str(p, v)
		case "include":
			r.Include = d.strings(p, v)
		case "exclude":
			r.Exclude = d.strings(p, v)
		case "timeout":
			r.Timeout = d.duration(p, v)
		case "enabled":
			r.Enabled = d.boolPtr(p, v)
		case "run":
			r.Run = d.runValue(p, v)
		case "requires_approval":
			r.RequiresApproval = d.boolPtr(p, v)
		case "insecure":
			r.Insecure = d.boolPtr(p, v)
		default:
			f, ok := settingOf(k, true)
			if !ok {
				d.unknown(p, remoteKeys)
				continue
			}
			d.setting(p, &r.Settings, f, v)
		}
		r.Pos[k] = d.pos(p)
	}
	if r.Include != nil && r.Exclude != nil {
		d.fail(with(path, "exclude"), ErrInvalid, "%s: include and exclude are both set; use one", dotted(path))
	}
	return r
}

// url decodes an http or https URL with a host.
func (d *decoder) url(path []string, v any) string {
	s, ok := d.str(path, v)
	if !ok {
		return ""
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		d.fail(path, ErrInvalid, `%s: %q is not an http or https URL; write e.g. "http://127.0.0.1:8080"`, dotted(path), s)
		return ""
	}
	if u.User != nil {
		d.fail(path, ErrInvalid, "%s: the URL holds a user or password; put no credential in the file: use bearer_token_env", dotted(path))
		return ""
	}
	return s
}

// headers decodes a table of header values. Authorization is refused: the
// file holds no credential (bearer_token_env names the variable that does).
func (d *decoder) headers(path []string, v any, pos map[string]Position) map[string]string {
	t, ok := d.table(path, v)
	if !ok {
		return nil
	}
	h := make(map[string]string, len(t))
	for _, k := range sortedKeys(t) {
		p := with(path, k)
		if strings.EqualFold(k, "Authorization") || strings.EqualFold(k, "Proxy-Authorization") {
			d.fail(p, ErrInvalid, `%s: a credential in the file; remove it and write bearer_token_env = "VARIABLE" with the token in that environment variable`, dotted(p))
			continue
		}
		if s, ok := d.str(p, t[k]); ok {
			h[k] = s
			pos["headers."+k] = d.pos(p)
		}
	}
	return h
}

// tokenEnv decodes the name of the variable holding a bearer token. A
// value that is no variable name is likely the token itself: the message
// never repeats it.
func (d *decoder) tokenEnv(path []string, v any) string {
	s, ok := v.(string)
	if !ok {
		d.fail(path, ErrWrongType, "%s: want the name of an environment variable (a string)", dotted(path))
		return ""
	}
	if !envName.MatchString(s) {
		d.fail(path, ErrInvalid, `%s: not an environment variable name (the value is not shown: it may be the token); write the variable's name, e.g. bearer_token_env = "GITHUB_TOKEN", and keep the token in the environment`, dotted(path))
		return ""
	}
	return s
}

// mcpSource applies source = "mcp.NAME" (all the server's tools) or
// "mcp.NAME.TOOL" (one) to e. The server's existence is checked after the
// layers are merged ([Config.checkMCP]). It reports whether src is an MCP
// source at all.
func (d *decoder) mcpSource(path []string, e *Entry, src string, t map[string]any) bool {
	rest, ok := strings.CutPrefix(src, "mcp.")
	if !ok {
		return false
	}
	p := with(path, "source")
	server, tool, _ := strings.Cut(rest, ".")
	if server == "" || (strings.Contains(rest, ".") && tool == "") {
		d.fail(p, ErrInvalid, `%s: %q names no server; write source = "mcp.SERVER" (all its tools) or "mcp.SERVER.TOOL" (one)`, dotted(p), src)
		return true
	}
	if e.Toolset && tool != "" {
		d.fail(p, ErrInvalid, `%s: a toolset serves all of a server's tools: write source = "mcp.%s", or serve %q alone from a [tools.NAME] entry`, dotted(p), server, tool)
		return true
	}
	e.Server, e.Tool = server, tool
	e.Pos["server"] = d.pos(p)
	e.Pos["tool"] = d.pos(p)
	all := tool == ""
	for _, k := range sortedKeys(t) {
		kp := with(path, k)
		switch {
		case slices.Contains(mcpRunKeys, k):
			d.fail(kp, ErrInvalid, "%s: not allowed with source = %q: how the server runs belongs in its [mcp_servers.%s] table", dotted(kp), src, server)
		case !all && slices.Contains(toolsetOnly, k):
			d.fail(kp, ErrInvalid, `%s: only with source = "mcp.%s" (all its tools) or in [toolsets.NAME]`, dotted(kp), server)
		case all && !e.Toolset && slices.Contains(perToolKeys, k):
			d.fail(kp, ErrInvalid, `%s: not allowed with source = %q, which serves all the server's tools; to override one, add an entry with source = "mcp.%s.TOOL"`, dotted(kp), src, server)
		}
	}
	return true
}

var (
	// mcpRunKeys are the keys of an entry that say how a local binary
	// runs: an MCP server's table holds them instead.
	mcpRunKeys = []string{"command", "tool", "shell", "workdir", "env", "clear_env", "self_describe", "options", "access", "sandbox"}
	// perToolKeys override one tool's definition.
	perToolKeys = []string{"summary", "description", "examples", "parameters", "annotations", "questions"}
)

// AllTools reports whether the entry serves every tool of its binary or
// server: a [toolsets.NAME], or source = "mcp.NAME".
func (e *Entry) AllTools() bool {
	return e.Toolset || (e.Server != "" && e.Tool == "")
}

// checkMCP runs the checks of the servers and remotes after the layers
// are merged, removing what fails them, and applies [defaults] to the
// servers. It returns the names of the servers it removed.
func (c *Config) checkMCP() (errs []*Error, broken []string) {
	for _, name := range slices.Sorted(maps.Keys(c.Servers)) {
		s := c.Servers[name]
		if e := s.check(); len(e) > 0 {
			errs = append(errs, e...)
			broken = append(broken, name)
			delete(c.Servers, name)
			continue
		}
		applyRun(&s.Run, &s.RequiresApproval, s.Pos, c.Defaults.Run, nil, c.Defaults.Pos)
		if s.Stdio() {
			if s.Sandbox == "" && c.Defaults.Sandbox != "" {
				s.Sandbox = c.Defaults.Sandbox
				s.Pos["sandbox"] = c.Defaults.Pos["sandbox"]
			}
			if d := c.Defaults.Access; d != nil {
				s.Access = appendAccess(&tool.Access{FS: d.FS, Net: d.Net, Env: d.Env}, s.Access, s.accessReplace)
			}
		}
		if s.Timeout == nil && c.Defaults.Timeout != nil {
			t := *c.Defaults.Timeout
			s.Timeout = &t
			s.Pos["timeout"] = c.Defaults.Pos["timeout"]
		}
	}
	for _, name := range slices.Sorted(maps.Keys(c.Remotes)) {
		r := c.Remotes[name]
		var bad *Error
		switch {
		case r.URL == "":
			bad = newError(r.Place, r.Key(), ErrInvalid, `%s: missing url; add url = "https://host" (the provider serving /api/v1/tools)`, r.Key())
		case r.Include != nil && r.Exclude != nil:
			bad = newError(r.Pos["exclude"], r.Key(), ErrInvalid, "%s: include and exclude are both set; use one", r.Key())
		default:
			if bad = checkRun(r.Key(), r.Run, r.RequiresApproval, r.Pos); bad == nil {
				bad = plainToken(r.Key(), r.URL, r.BearerTokenEnv, r.Insecure, r.Pos)
			}
			if bad == nil {
				bad = oauthConflict(r.Key(), r.BearerTokenEnv, r.OAuth, r.Pos)
			}
		}
		if bad != nil {
			errs = append(errs, bad)
			delete(c.Remotes, name)
			continue
		}
		applyRun(&r.Run, &r.RequiresApproval, r.Pos, c.Defaults.Run, nil, c.Defaults.Pos)
	}
	return errs, broken
}

// plainToken reports a bearer token that would go over plain http:// to
// a host that is not loopback, unless insecure = true says so.
func plainToken(key, rawURL, tokenEnv string, insecure *bool, pos map[string]Position) *Error {
	if tokenEnv == "" || (insecure != nil && *insecure) {
		return nil
	}
	u, err := url.Parse(rawURL)
	if err != nil || u.Scheme != "http" || loopback(u.Hostname()) {
		return nil
	}
	return newError(pos["bearer_token_env"], key, ErrInvalid,
		"%s: the token in $%s would go over plain http:// to %s, where anyone on the path can read it; use an https:// url, or add insecure = true if you accept that",
		key, tokenEnv, u.Host)
}

// loopback reports whether host is this machine: localhost or a loopback
// address.
func loopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// check reports a server with neither or both of command and url, or with
// keys of the other kind.
func (s *Server) check() []*Error {
	switch {
	case s.Command.IsZero() && s.URL == "":
		return []*Error{newError(s.Place, s.Key(), ErrInvalid,
			`%s: neither command nor url is set; add command = "program" (a stdio server) or url = "https://host/mcp" (streamable HTTP)`, s.Key())}
	case !s.Command.IsZero() && s.URL != "":
		return []*Error{newError(s.Pos["url"], s.Key(), ErrInvalid,
			"%s: command (%s) and url (%s) are both set; keep one", s.Key(), s.Pos["command"], s.Pos["url"])}
	}
	if err := checkRun(s.Key(), s.Run, s.RequiresApproval, s.Pos); err != nil {
		return []*Error{err}
	}
	if !s.Stdio() {
		if err := plainToken(s.Key(), s.URL, s.BearerTokenEnv, s.Insecure, s.Pos); err != nil {
			return []*Error{err}
		}
		if err := oauthConflict(s.Key(), s.BearerTokenEnv, s.OAuth, s.Pos); err != nil {
			return []*Error{err}
		}
	}
	var errs []*Error
	wrong, kind := httpKeys, "a stdio server (command)"
	if !s.Stdio() {
		wrong, kind = stdioKeys, "an HTTP server (url)"
	}
	for _, k := range wrong {
		if pos, ok := s.Pos[k]; ok {
			errs = append(errs, newError(pos, s.Key()+"."+k, ErrInvalid, "%s.%s: not used by %s; remove it", s.Key(), k, kind))
		}
	}
	return errs
}

// checkSource reports an MCP entry whose server is not configured (or was
// removed by its own errors), naming the configured ones.
func (c *Config) checkSource(e *Entry, broken []string) *Error {
	if e.Server == "" {
		return nil
	}
	if _, ok := c.Servers[e.Server]; ok {
		if !e.Command.IsZero() {
			return newError(e.Pos["command"], e.Key(), ErrInvalid,
				"%s: command (%s) and source = \"mcp.%s…\" (%s) are both set; keep one", e.Key(), e.Pos["command"], e.Server, e.Pos["server"])
		}
		return nil
	}
	if slices.Contains(broken, e.Server) {
		return newError(e.Pos["server"], e.Key(), ErrWithheld,
			"%s: withheld: its server [mcp_servers.%s] has errors; fix them to serve it", e.Key(), e.Server)
	}
	names := slices.Sorted(maps.Keys(c.Servers))
	have := "none is configured"
	if len(names) > 0 {
		have = "the configured ones are " + quoteNames(names)
	}
	hint := ""
	if s := suggestKey(e.Server, names); s != "" {
		hint = fmt.Sprintf("did you mean %q? ", s)
	}
	return newError(e.Pos["server"], e.Key(), ErrInvalid,
		"%s: unknown MCP server %q (%s); %sadd [mcp_servers.%s] with command or url",
		e.Key(), e.Server, have, hint, e.Server)
}

func quoteNames(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}

// mergeServer lays src (a later layer) over dst: every key src sets
// replaces dst's (the command as a unit), env and headers merge per
// variable, access rules append.
func mergeServer(dst, src *Server) {
	set := func(k string) bool { _, ok := src.Pos[k]; return ok }
	if set("command") {
		dst.Command = src.Command
	}
	if set("args") {
		dst.Args = src.Args
	}
	if set("dir") {
		dst.Dir = src.Dir
	}
	if set("prefix") {
		dst.Prefix = src.Prefix
	}
	if set("url") {
		dst.URL = src.URL
	}
	if set("bearer_token_env") {
		dst.BearerTokenEnv = src.BearerTokenEnv
	}
	if set("oauth") {
		dst.OAuth = src.OAuth
	}
	if set("sandbox") {
		dst.Sandbox = src.Sandbox
	}
	if set("idle_timeout") {
		dst.IdleTimeout = src.IdleTimeout
	}
	if set("start_timeout") {
		dst.StartTimeout = src.StartTimeout
	}
	if set("timeout") {
		dst.Timeout = src.Timeout
	}
	if set("enabled") {
		dst.Enabled = src.Enabled
	}
	mergeRun(&dst.Run, &dst.RequiresApproval, src.Run, src.RequiresApproval, set)
	if set("insecure") {
		dst.Insecure = src.Insecure
	}
	dst.Env = mergeStrings(dst.Env, src.Env)
	overrideEnv(&dst.Env, &dst.Secrets, src.Env, src.Secrets)
	dst.Headers = mergeStrings(dst.Headers, src.Headers)
	dst.Access, dst.accessReplace = appendAccess(dst.Access, src.Access, src.accessReplace), mergedReplace(dst.accessReplace, src.Access)
	dst.Pos = mergePos(dst.Pos, src.Pos)
}

// mergeRemote lays src (a later layer) over dst as [mergeServer] does.
func mergeRemote(dst, src *Remote) {
	set := func(k string) bool { _, ok := src.Pos[k]; return ok }
	if set("url") {
		dst.URL = src.URL
	}
	if set("bearer_token_env") {
		dst.BearerTokenEnv = src.BearerTokenEnv
	}
	if set("oauth") {
		dst.OAuth = src.OAuth
	}
	if set("prefix") {
		dst.Prefix = src.Prefix
	}
	if set("include") {
		dst.Include = src.Include
	}
	if set("exclude") {
		dst.Exclude = src.Exclude
	}
	if set("timeout") {
		dst.Timeout = src.Timeout
	}
	laySettings(&dst.Settings, &src.Settings, set)
	if set("enabled") {
		dst.Enabled = src.Enabled
	}
	mergeRun(&dst.Run, &dst.RequiresApproval, src.Run, src.RequiresApproval, set)
	if set("insecure") {
		dst.Insecure = src.Insecure
	}
	dst.Headers = mergeStrings(dst.Headers, src.Headers)
	dst.Pos = mergePos(dst.Pos, src.Pos)
}

func mergeStrings(dst, src map[string]string) map[string]string {
	if src == nil {
		return dst
	}
	if dst == nil {
		dst = map[string]string{}
	}
	maps.Copy(dst, src)
	return dst
}

// ImpliedEntry returns the entry of a server no entry names. It serves
// all its tools under their own names, as [toolsets.NAME] source =
// "mcp.NAME" would serve them. The server's run mode and [defaults] apply
// as to the entries c holds. Its Place is the server's.
func (c *Config) ImpliedEntry(s *Server) *Entry {
	e := &Entry{Name: s.Name, Toolset: true, Server: s.Name, Prefix: s.Prefix, Place: s.Place, Pos: map[string]Position{}}
	applyRun(&e.Run, &e.RequiresApproval, e.Pos, s.Run, s.RequiresApproval, s.Pos)
	c.Defaults.apply(e)
	return e
}
