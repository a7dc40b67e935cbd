package tool

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"

	"github.com/toolhost/toolhost/internal/wspath"
)

// AccessPolicy is the JP assistant's access policy (its RFD 076, crate
// jp_tool), the value of a request's context.access: what the host grants
// the tool, for the tool to check cooperatively before it acts. Encoded
// with [Marshal] it has exactly the bytes serde_json writes for jp_tool's
// AccessPolicy: every field present, unset capabilities as null, in
// jp_tool's field order (tool/testdata/access_policy.json).
//
// An empty list leaves that kind unrestricted. One rule makes it
// default-deny. toolhost's OS sandbox enforces the same rules (see
// docs/security.md). The wire form carries only the workspace's rules,
// which are what jp_tool matches.
type AccessPolicy struct {
	FS  []FSRule  `json:"fs"`
	Net []NetRule `json:"net"`
	Env []EnvRule `json:"env"`
}

// FSRule is one compiled filesystem grant: LexicalPath is relative to the
// workspace root ("" is the root itself), and the most specific rule
// matching a path wins, the last one on a tie. Write is the alias of
// Create, Update and Delete. An explicit capability overrides it. Unset
// (nil) is denied.
type FSRule struct {
	LexicalPath    string  `json:"lexical_path"`
	External       bool    `json:"external"`        // the path is a symlink leaving the workspace, allowed to
	ApprovedTarget *string `json:"approved_target"` // the canonical target an external rule may resolve to
	Read           *bool   `json:"read"`
	Write          *bool   `json:"write"`
	Create         *bool   `json:"create"`
	Update         *bool   `json:"update"`
	Delete         *bool   `json:"delete"`
	Execute        *bool   `json:"execute"`
}

// NetRule is one network grant, matched against a URI's host (exact, case
// insensitive), scheme, port and path prefix.
type NetRule struct {
	Host       string  `json:"host"`
	Scheme     *string `json:"scheme"`
	Port       *uint16 `json:"port"`
	PathPrefix *string `json:"path_prefix"`
	Allow      bool    `json:"allow"`
}

// EnvRule is one environment variable grant: Name is exact, or a prefix
// when it ends with "*".
type EnvRule struct {
	Name string `json:"name"`
	Read bool   `json:"read"`
}

// MarshalJSON writes nil lists as [] as serde does for a Vec.
func (p AccessPolicy) MarshalJSON() ([]byte, error) {
	type plain AccessPolicy
	if p.FS == nil {
		p.FS = []FSRule{}
	}
	if p.Net == nil {
		p.Net = []NetRule{}
	}
	if p.Env == nil {
		p.Env = []EnvRule{}
	}
	return Marshal(plain(p))
}

// Access is an access policy as configured: the access.fs, access.net
// and access.env rules of an entry or MCP server, in layer order. The
// configuration decodes into it and the OS sandbox enforces it. For a
// request it compiles to an [AccessPolicy], which carries only the
// workspace's rules. An empty list leaves that kind unrestricted. One
// rule makes it default-deny. The most specific rule wins, the last one
// on a tie.
type Access struct {
	FS  []AccessFS
	Net []AccessNet
	Env []AccessEnv
}

// AccessFS is one access.fs rule as written. Path is relative to the
// workspace root ("." is all of it), as in JP. It may also be absolute
// or under "~/": the OS sandbox enforces such a rule, the wire form
// leaves it out. Unset capabilities are denied. Write is the alias of
// Create, Update and Delete, which override it when set.
type AccessFS struct {
	Path     string
	External bool // Path is a symlink in the workspace resolving outside it
	Read     *bool
	Write    *bool
	Create   *bool
	Update   *bool
	Delete   *bool
	Execute  *bool
	Pos      Position // where the rule was written
	// Targets are where the rules of the trusted workspace file holding
	// this rule resolved when a person trusted it: the absolute path a
	// rule names (links not followed) mapped to its target. The sandbox
	// refuses a call whose rule resolves elsewhere now. Targets is nil
	// for the user's own and explicit files: the sandbox then pins the
	// rule on its first use in the process.
	Targets map[string]string
}

// AccessNet is one access.net rule: JP's fields, plus Bind. An allowed
// rule grants its port, or its scheme's (80 and 443 when neither is
// given).
type AccessNet struct {
	Host       string
	Scheme     *string
	Port       *uint16
	PathPrefix *string
	Allow      bool
	Bind       bool     // the tool may also listen on Port (not on the wire)
	Pos        Position // where the rule was written
}

// AccessEnv is one access.env rule: Name exact, or a prefix ending in "*".
type AccessEnv struct {
	Name string
	Read bool
	Pos  Position // where the rule was written
}

// Position is a place in a configuration file, such as where a rule was
// written. A rule toolhost adds itself names its origin in File, with
// Line 0.
type Position struct {
	File string // the path the layer was read from
	Line int    // 1-based; 0 when unknown
}

// String returns "file:line", or "file" when the line is unknown.
func (p Position) String() string {
	if p.Line <= 0 {
		return p.File
	}
	return p.File + ":" + strconv.Itoa(p.Line)
}

// ErrAccessRule reports an access rule that cannot be compiled for the
// wire.
var ErrAccessRule = errors.New("invalid access rule")

// Wire compiles the policy for a request's context.access (see
// [AccessPolicy]) with the workspace root root: nil when the policy
// declares nothing (access null: unrestricted, as JP sends it). Rule paths
// are resolved as JP resolves them (RFD 076): normalised, symlinks of
// existing ancestors followed, made relative to the root. Rules outside the
// workspace (absolute, "~/") are enforced by the OS only and not sent: JP's
// tools match only workspace-relative paths. warnings name external rules
// dropped because their symlink does not resolve.
func (a *Access) Wire(root string) (access json.RawMessage, warnings []string, err error) {
	if a == nil || len(a.FS)+len(a.Net)+len(a.Env) == 0 {
		return nil, nil, nil
	}
	var ap AccessPolicy
	rootReal := wspath.Real(root)
	declared := false
	for _, r := range a.FS {
		if wspath.Outside(r.Path) {
			continue
		}
		declared = true
		lex, ok := wspath.Lexical(r.Path)
		if !ok {
			return nil, nil, fmt.Errorf("%w: access.fs path %q leaves the workspace; write a path inside it, or an absolute or ~/ path", ErrAccessRule, r.Path)
		}
		w := FSRule{External: r.External, Read: r.Read, Write: r.Write, Create: r.Create, Update: r.Update, Delete: r.Delete, Execute: r.Execute}
		if r.External {
			target, err := filepath.EvalSymlinks(filepath.Join(root, lex))
			if err != nil {
				warnings = append(warnings, fmt.Sprintf("dropping external rule %q: cannot resolve its target (%v)", r.Path, errors.Unwrap(err)))
				continue
			}
			if wspath.Within(rootReal, target) {
				return nil, nil, fmt.Errorf("%w: access.fs path %q sets external = true but resolves inside the workspace; drop external", ErrAccessRule, r.Path)
			}
			w.LexicalPath, w.ApprovedTarget = lex, &target
		} else {
			c := wspath.Canonical(rootReal, lex)
			rel, err := filepath.Rel(rootReal, c)
			if err != nil || !wspath.Within(rootReal, c) {
				return nil, nil, fmt.Errorf("%w: access.fs path %q resolves outside the workspace (to %s); set external = true on it", ErrAccessRule, r.Path, c)
			}
			if rel == "." {
				rel = ""
			}
			w.LexicalPath = filepath.ToSlash(rel)
		}
		ap.FS = append(ap.FS, w)
	}
	if declared && len(ap.FS) == 0 { // every rule compiled away: deny all, as JP does, never "unrestricted"
		ap.FS = []FSRule{{}}
	}
	for _, r := range a.Net {
		ap.Net = append(ap.Net, NetRule{Host: r.Host, Scheme: r.Scheme, Port: r.Port, PathPrefix: r.PathPrefix, Allow: r.Allow})
	}
	for _, r := range a.Env {
		ap.Env = append(ap.Env, EnvRule{Name: r.Name, Read: r.Read})
	}
	data, err := Marshal(ap)
	return data, warnings, err
}
