package tool

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
