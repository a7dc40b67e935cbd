package persist

import (
	"time"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/internal/invoke"
)

// This file is the header of a persisted resolution: the types the codec
// (codec.go) writes and reads. What they mean (when a resolution is
// stored and used, and what a restored plan rebuilds) is resolver's.

// Resolution is the header of a persisted resolution (its encoding:
// codec.go).
type Resolution struct {
	Version  int
	Key      string
	Files    string   // layersKey of the configuration files, when it had no problems
	Plan     *Plan    // with Files: what restore needs of the configuration
	Keys     []string // stat key of each asked group, in plan order
	Identity catalog.Identity
	Problems []byte // the warnings, JSON of []storedProblem; nil when none
	List     Span   // the tools/list result {"tools":[…]}
	Tools    []Tool // sorted by name
}

// Plan is what a restored catalog needs of its configuration: every
// invocation (in plan order, for the stat keys) and, for the entries its
// tools come from, their group and the fields a binding takes.
type Plan struct {
	Groups     []Group            `json:"groups"`
	Entries    []Entry            `json:"entries"`
	Categories []catalog.Category `json:"categories,omitempty"`
}

// Group is one invocation of the plan (a binary and how it is started).
type Group struct {
	// Spec is how the binary is started: the codec keeps its Command,
	// Shell, Dir, Env and ClearEnv. The rest follows from the entries.
	Spec    invoke.Spec
	Text    string // the command as written
	Timeout time.Duration
	Asked   bool
}

// Entry is one configuration entry a restored binding takes: its key,
// its group and the entry itself. The codec keeps the fields a binding
// reads: AllowOption, Options (numbers as written), Sandbox and Access.
type Entry struct {
	Key    string
	Group  int
	Config *config.Entry
}

// Span is [offset, length] in the body.
type Span [2]int

// in reports whether s lies in a body of n bytes.
func (s Span) in(n int64) bool {
	return s[0] >= 0 && s[1] >= 0 && int64(s[0]) <= n && int64(s[1]) <= n-int64(s[0])
}

// Of returns the bytes of body that s points at, false when s leaves body.
func (s Span) Of(body []byte) ([]byte, bool) {
	if s[0] < 0 || s[1] < 0 || s[0] > len(body) || s[1] > len(body)-s[0] {
		return nil, false
	}
	return body[s[0] : s[0]+s[1]], true
}

// Tool is one tool's entry in the header.
type Tool struct {
	Name      string
	Summary   string
	Enabled   bool
	Entry     string // its configuration entry: tools.NAME or toolsets.NAME
	Bin       string // its name inside the binary
	Protocol  bool
	V2        bool          // the binary speaks protocol v2
	LongLived bool          // it declared long_lived (v2)
	Timeout   time.Duration // per run, as merged
	Detail    Span
}
