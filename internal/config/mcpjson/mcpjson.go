// Package mcpjson reads the MCP servers other clients keep in JSON, for
// `toolhost import --mcp-json`. It knows three places: "mcpServers"
// (Claude Desktop, Claude Code, Cursor, Windsurf), "servers" (VS Code's
// mcp.json) and "mcp"."servers" (VS Code's settings.json). Comments and
// trailing commas are allowed, as VS Code allows them.
//
// No credential is copied into the configuration. A variable that looks
// like a secret becomes a secret reference, and the result's notes say
// what the person must set. A server whose arguments or URL query hold
// what looks like a credential is left out, with a note.
package mcpjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net"
	"net/url"
	"path/filepath"
	"slices"
	"strings"

	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/internal/config/secret"
	"github.com/toolhost/toolhost/internal/dupkey"
	"github.com/toolhost/toolhost/internal/lazyre"
	"github.com/toolhost/toolhost/internal/toolname"
)

// MaxSize bounds the bytes [Parse] reads.
const MaxSize = 4 << 20

// Result is what a file gives.
type Result struct {
	// Servers are the file's servers, in its order, as toolhost tables.
	Servers []*config.Server
	// Notes say what changed on the way and what the person must do:
	// a secret to set, a key left out, a server skipped.
	Notes []string
}

// Parse reads the servers of data, one client's JSON file. A file that is
// not JSON, or has no servers where the clients keep them, is an error.
// Options are the choices of [Parse].
type Options struct {
	// Home replaces ${userHome} in arguments; "" leaves it as written.
	Home string
	// Only names the servers to read, by their names in the file; all
	// when empty. A name the file does not have is an error.
	Only []string
}

// A server toolhost cannot run is left out with a note. opts may be nil.
func Parse(data []byte, opts *Options) (*Result, error) {
	if opts == nil {
		opts = &Options{}
	}
	if len(data) > MaxSize {
		return nil, fmt.Errorf("the file is larger than %d MiB: not a client's configuration", MaxSize>>20)
	}
	data = plain(data)
	if err := dupkey.Check(data); err != nil {
		return nil, err
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, syntaxError(data, err)
	}
	block, where := top["mcpServers"], "mcpServers"
	if block == nil {
		block, where = top["servers"], "servers"
	}
	if block == nil {
		var mcp struct {
			Servers json.RawMessage `json:"servers"`
		}
		if raw := top["mcp"]; raw != nil && json.Unmarshal(raw, &mcp) == nil && mcp.Servers != nil {
			block, where = mcp.Servers, "mcp.servers"
		}
	}
	if block == nil {
		return nil, errors.New(`no MCP servers found: the file has no "mcpServers" (Claude Desktop, Claude Code, Cursor, Windsurf), "servers" (VS Code's mcp.json) or "mcp": {"servers"} (VS Code's settings.json)`)
	}
	names, raws, err := object(block)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	for _, n := range opts.Only {
		if !slices.Contains(names, n) {
			return nil, fmt.Errorf("the file has no server %q (it has %s)", n, strings.Join(quoteAll(names), ", "))
		}
	}
	r := &Result{}
	taken := map[string]bool{}
	vars := map[string]bool{} // the variables made up for bearer tokens
	for i, name := range names {
		if len(opts.Only) > 0 && !slices.Contains(opts.Only, name) {
			continue
		}
		s, notes, err := server(name, raws[i], opts.Home, vars)
		if err != nil {
			r.Notes = append(r.Notes, fmt.Sprintf("%s: left out: %v", quoteName(name), err))
			continue
		}
		s.Name = uniqueName(name, taken)
		if s.Name != name {
			notes = append([]string{fmt.Sprintf("named %s: a server's name is 1 to 64 letters, digits, '_' or '-'", s.Name)}, notes...)
		}
		for _, n := range notes {
			r.Notes = append(r.Notes, quoteName(name)+": "+n)
		}
		r.Servers = append(r.Servers, s)
	}
	return r, nil
}

// entry is one server as the clients write it.
type entry struct {
	Type      string            `json:"type"`
	Command   string            `json:"command"`
	Args      []string          `json:"args"`
	Env       map[string]string `json:"env"`
	Cwd       string            `json:"cwd"`
	URL       string            `json:"url"`
	ServerURL string            `json:"serverUrl"` // Windsurf's spelling
	Headers   map[string]string `json:"headers"`
	Disabled  bool              `json:"disabled"`
	EnvFile   string            `json:"envFile"`
}

// known are the keys of entry, and the keys of clients' own features
// that toolhost leaves out without a word.
var known = map[string]bool{
	"type": true, "command": true, "args": true, "env": true, "cwd": true,
	"url": true, "serverUrl": true, "headers": true, "disabled": true, "envFile": true,
}

var (
	envVar   = lazyre.New(`^\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)\}$`)
	inputVar = lazyre.New(`^\$\{input:([^}]*)\}$`)
	anyVar   = lazyre.New(`\$\{[^}]*\}`)
	// secretish matches names of variables and headers that hold credentials.
	secretish = lazyre.New(`(?i)token|secret|passw|passphrase|api[-_]?key|access[-_]?key|private[-_]?key|credential|auth|cookie|session|(^|[-_])pat($|[-_])`)
	// tokenish matches values shaped as well-known credentials.
	tokenish = lazyre.New(`^(ghp_|gho_|ghu_|ghs_|github_pat_|glpat-|sk-|xox[abpr]-|AKIA|AIza|ya29\.)`)
)

// server converts one entry. An error leaves the server out. vars are
// the variables already made up for other servers' bearer tokens.
func server(name string, raw json.RawMessage, home string, vars map[string]bool) (*config.Server, []string, error) {
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(raw, &keys); err != nil {
		return nil, nil, errors.New("not a JSON object")
	}
	var e entry
	if err := json.Unmarshal(raw, &e); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return nil, nil, fmt.Errorf("%q: a %s where a %s belongs", te.Field, te.Value, kind(te.Type.String()))
		}
		return nil, nil, err
	}
	var notes []string
	var ignored []string
	for k := range keys {
		if !known[k] {
			ignored = append(ignored, k)
		}
	}
	if len(ignored) > 0 {
		slices.Sort(ignored)
		notes = append(notes, fmt.Sprintf("not imported (no toolhost equivalent): %s", strings.Join(ignored, ", ")))
	}
	if e.URL == "" {
		e.URL = e.ServerURL
	}
	s := &config.Server{Pos: map[string]config.Position{}}
	switch typ := strings.ToLower(e.Type); {
	case e.Command != "" && e.URL != "":
		return nil, nil, errors.New(`it has both "command" and "url"; keep one in the file and import again`)
	case e.Command != "":
		if typ != "" && typ != "stdio" {
			return nil, nil, fmt.Errorf(`"type" is %q but it has a "command"`, e.Type)
		}
		if isToolhost(e.Command, e.Args) {
			return nil, nil, errors.New("it is toolhost itself, which would serve its own tools")
		}
		for i, a := range e.Args {
			_, v, _ := strings.Cut(a, "=")
			if tokenish().MatchString(a) || tokenish().MatchString(v) {
				return nil, nil, fmt.Errorf("its argument %d looks like a credential, which the configuration would hold as plain text: have the server read it from a variable in env, then import again", i+1)
			}
		}
		argv, n := paths(append([]string{e.Command}, e.Args...), home)
		notes = append(notes, n...)
		s.Command = config.Command{Args: argv}
		if e.Cwd != "" {
			dir, n := paths([]string{e.Cwd}, home)
			s.Dir = dir[0]
			notes = append(notes, n...)
		}
		notes = append(notes, env(s, e.Env)...)
		if e.EnvFile != "" {
			notes = append(notes, fmt.Sprintf("envFile %q is not read: put its variables in env", e.EnvFile))
		}
	case e.URL != "":
		switch typ {
		case "", "http", "streamable-http", "streamablehttp":
		case "sse":
			notes = append(notes, `"type": "sse" is the older transport; toolhost speaks streamable HTTP: if toolhost check says the server does not answer, use its streamable HTTP endpoint (often /mcp instead of /sse)`)
		default:
			return nil, nil, fmt.Errorf(`"type" %q is a transport toolhost does not speak (it speaks stdio and streamable HTTP)`, e.Type)
		}
		u, err := url.Parse(e.URL)
		switch {
		case err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https"):
			return nil, nil, fmt.Errorf("%q is not an http or https URL with a host", e.URL)
		case u.User != nil:
			return nil, nil, errors.New("its URL holds a user or password: take the credential out of the URL, then import again")
		}
		if k := queryCredential(u.Query()); k != "" {
			return nil, nil, fmt.Errorf("its URL's query holds a credential (%s): take it out of the URL (the server may take it as a header), then import again", k)
		}
		s.URL = e.URL
		notes = append(notes, headers(s, name, e.Headers, vars)...)
		if s.BearerTokenEnv != "" && u.Scheme == "http" && !loopback(u.Hostname()) {
			s.BearerTokenEnv = ""
			notes = append(notes, "its bearer token is left out: the URL is plain http:// to a host that is not this machine, where anyone on the path could read it; use the server's https:// URL, or set bearer_token_env and insecure = true with toolhost edit")
		}
		if len(e.Env) > 0 {
			notes = append(notes, "env is not imported: a server reached at a URL runs elsewhere")
		}
	default:
		return nil, nil, errors.New(`it has neither "command" nor "url"`)
	}
	if e.Disabled {
		off := false
		s.Enabled = &off
	}
	return s, notes, nil
}

// env copies variables into s: literal values into Env, references and
// credentials into Secrets, read from toolhost's environment.
func env(s *config.Server, vars map[string]string) []string {
	var notes []string
	for _, k := range sortedKeys(vars) {
		v := vars[k]
		if m := envVar().FindStringSubmatch(v); m != nil {
			addSecret(s, k, m[1])
			continue
		}
		if m := inputVar().FindStringSubmatch(v); m != nil {
			addSecret(s, k, k)
			notes = append(notes, fmt.Sprintf("env.%s: VS Code asks for it (input %q); toolhost reads it from its environment: export %s=… where toolhost starts", k, m[1], k))
			continue
		}
		if secretish().MatchString(k) || tokenish().MatchString(v) {
			addSecret(s, k, k)
			notes = append(notes, fmt.Sprintf("env.%s: its value is not copied into the configuration; toolhost reads it from its environment: export %s=… where toolhost starts (or keep it in an owner-only file or the keyring: docs/config.md#secrets)", k, k))
			continue
		}
		if anyVar().MatchString(v) {
			notes = append(notes, fmt.Sprintf("env.%s: %q is passed as written; toolhost does not expand ${…} in values", k, v))
		}
		if s.Env == nil {
			s.Env = map[string]string{}
		}
		s.Env[k] = v
	}
	return notes
}

// addSecret makes the variable name of s read from the variable from of
// toolhost's environment.
func addSecret(s *config.Server, name, from string) {
	if s.Secrets == nil {
		s.Secrets = map[string]secret.Ref{}
	}
	s.Secrets[name] = secret.Ref{Kind: "env", Name: from}
}

// headers copies the headers of an HTTP server into s. A bearer token
// becomes bearer_token_env; other credentials are left out, with a note.
// A variable made up for a token is not one of vars, so no two servers
// read one token. It is added to vars.
func headers(s *config.Server, name string, hs map[string]string, vars map[string]bool) []string {
	var notes []string
	for _, k := range sortedKeys(hs) {
		v := hs[k]
		if strings.EqualFold(k, "Authorization") {
			scheme, tok, _ := strings.Cut(v, " ")
			if !strings.EqualFold(scheme, "Bearer") {
				notes = append(notes, fmt.Sprintf("headers.%s is left out: toolhost sends only a bearer token (bearer_token_env)", k))
				continue
			}
			if m := envVar().FindStringSubmatch(strings.TrimSpace(tok)); m != nil {
				s.BearerTokenEnv = m[1]
				continue
			}
			v := envName(name) + "_TOKEN"
			for i := 2; vars[v]; i++ {
				v = fmt.Sprintf("%s_%d_TOKEN", envName(name), i)
			}
			vars[v] = true
			s.BearerTokenEnv = v
			notes = append(notes, fmt.Sprintf("its bearer token is not copied into the configuration; toolhost reads it from the variable %s: export %s=… where toolhost starts", s.BearerTokenEnv, s.BearerTokenEnv))
			continue
		}
		if secretish().MatchString(k) || anyVar().MatchString(v) || tokenish().MatchString(v) {
			notes = append(notes, fmt.Sprintf("headers.%s is left out: it looks like a credential, and a header's value in the configuration is plain text; if the server needs it, add it with toolhost edit", k))
			continue
		}
		if s.Headers == nil {
			s.Headers = map[string]string{}
		}
		s.Headers[k] = v
	}
	return notes
}

// paths rewrites the variables of VS Code and Cursor that toolhost can
// say otherwise: ${workspaceFolder} is the workspace root, where a server
// starts, and ${userHome} the home directory (when home is known).
func paths(args []string, home string) ([]string, []string) {
	var notes []string
	out := make([]string, len(args))
	for i, a := range args {
		switch {
		case a == "${workspaceFolder}":
			a = "."
		case strings.HasPrefix(a, "${workspaceFolder}/"):
			a = "." + strings.TrimPrefix(a, "${workspaceFolder}")
		case home != "" && strings.HasPrefix(a, "${userHome}"):
			a = home + strings.TrimPrefix(a, "${userHome}")
		}
		if anyVar().MatchString(a) {
			notes = append(notes, fmt.Sprintf("%q is passed as written; toolhost does not expand ${…} in arguments", a))
		}
		out[i] = a
	}
	return out, notes
}

// queryCredential is the first parameter of q, by name, that looks like
// a credential: by its name or by its value. It is "" when none does.
func queryCredential(q url.Values) string {
	for _, k := range slices.Sorted(maps.Keys(q)) {
		if secretish().MatchString(k) || slices.ContainsFunc(q[k], tokenish().MatchString) {
			return k
		}
	}
	return ""
}

// loopback reports whether host is this machine, as the configuration
// decides where a bearer token may go over plain http://.
func loopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// isToolhost reports whether a command line starts toolhost's own server.
func isToolhost(command string, args []string) bool {
	base := filepath.Base(command)
	return (base == "toolhost" || base == "toolhost.exe") && slices.Contains(args, "serve")
}

// uniqueName is name as a valid server name not yet in taken.
func uniqueName(name string, taken map[string]bool) string {
	var b strings.Builder
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
			b.WriteRune(r)
		case b.Len() > 0 && !strings.HasSuffix(b.String(), "-"):
			b.WriteByte('-')
		}
	}
	base := strings.Trim(b.String(), "-")
	if len(base) > 60 {
		base = base[:60]
	}
	if base == "" {
		base = "server"
	}
	n := base
	for i := 2; taken[n] || !toolname.Valid(n); i++ {
		// The suffix takes its room from the base: a name stays within 64.
		suffix := fmt.Sprintf("-%d", i)
		n = base[:min(len(base), 64-len(suffix))] + suffix
	}
	taken[n] = true
	return n
}

// envName is name as the start of an environment variable's name.
func envName(name string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z':
			return r - 'a' + 'A'
		case r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
			return r
		}
		return '_'
	}, name)
}

// object returns the keys of a JSON object in their order, with their values.
func object(raw json.RawMessage) ([]string, []json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, nil, errors.New("not a JSON object of servers")
	}
	var names []string
	var values []json.RawMessage
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, nil, err
		}
		names = append(names, tok.(string))
		values = append(values, v)
	}
	return names, values, nil
}

// syntaxError says where data stops being JSON, by line and column.
func syntaxError(data []byte, err error) error {
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return errors.New("not a JSON object")
		}
		return err
	}
	line, col := 1, 1
	for _, c := range data[:max(0, min(int(se.Offset)-1, len(data)))] {
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return fmt.Errorf("line %d, column %d: not JSON: %v", line, col, se)
}

// kind names a Go type as JSON does.
func kind(goType string) string {
	switch {
	case strings.HasPrefix(goType, "map"):
		return "JSON object of strings"
	case strings.HasPrefix(goType, "[]"):
		return "JSON array of strings"
	case goType == "bool":
		return "boolean"
	}
	return "string"
}

// quoteAll quotes each of names.
func quoteAll(names []string) []string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = quoteName(n)
	}
	if len(q) == 0 {
		return []string{"none"}
	}
	return q
}

// quoteName is a server's name as the notes show it.
func quoteName(name string) string { return fmt.Sprintf("%q", name) }

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
