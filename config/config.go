package config

import (
	"strings"
	"time"

	"github.com/toolhost/toolhost/internal/config/secret"
	"github.com/toolhost/toolhost/tool"
)

// Config is the merged configuration: every layer read by [Load], or the
// one file given to [Parse].
type Config struct {
	Defaults   Defaults             // [defaults], already applied to the entries
	Tools      map[string]*Entry    // [tools.NAME], keyed by NAME
	Toolsets   map[string]*Entry    // [toolsets.NAME], keyed by NAME
	Categories map[string]*Category // [categories.ID], keyed by ID
	Servers    map[string]*Server   // [mcp_servers.NAME], keyed by NAME
	Remotes    map[string]*Remote   // [remotes.NAME], keyed by NAME
	Files      []string             // layers read, in order (later wins)
}

// Defaults is the [defaults] table. [Load] and [Parse] apply it to every
// entry that leaves the field unset, so callers may read the entries alone.
// It is kept here for display.
type Defaults struct {
	Timeout  *Duration         // timeout of an entry, server or remote without one; nil: the resolver's 60s
	ClearEnv *bool             // clear_env of an entry without one
	Env      map[string]string // variables every entry gets; an entry's env wins per variable
	// Secrets are the env.NAME = { secret = "…" } variables every entry
	// gets (see [Entry.Secrets]).
	Secrets map[string]secret.Ref
	// Run and CancellationResponse are those of an entry that sets
	// neither run nor requires_approval (resp. cancellation_response);
	// Run is also that of an MCP server or remote that sets neither.
	Run, CancellationResponse *string
	Access                    *tool.Access // rules every entry gets before its own
	accessReplace             map[string]bool
	Sandbox                   string // sandbox of an entry without one: "true", "false", "require"; "" unset
	// Settings are those of an entry, and of a remote's tools, that set
	// none. Pos says which are set.
	tool.Settings
	// KeepOutput is keep_output: how long the whole result of a call cut
	// to max_output stays readable; nil: 24 hours.
	KeepOutput *Duration

	// Pos records where each field was set: "timeout", "clear_env", "env",
	// "env.NAME".
	Pos map[string]Position
}

// Entry is one [tools.NAME] or [toolsets.NAME] table, merged over all layers.
//
// Pointer fields are nil when no layer set them, so that a later layer can
// override true with false.
type Entry struct {
	Name    string  // the table key
	Toolset bool    // from [toolsets.NAME]
	Command Command // string (shell words) or array
	Tool    string  // name inside the binary ("" means Name); JP's source = "local.x" sets it
	// Server is the [mcp_servers.NAME] the entry's tools come from, set by
	// JP's source = "mcp.NAME" (all its tools; Tool is "", see
	// [Entry.AllTools]) or "mcp.NAME.TOOL" (Tool is TOOL), "" for a local
	// binary. An MCP entry has no command: its server's table says how the
	// server runs, and its fields are overrides of the server's definition.
	Server string
	// JPForm is true when the entry is written in the JP assistant's form
	// (source = "local…"): its TOML parameters then keep JP's rule, optional
	// unless they say required = true (docs/config.md, "JP compatibility").
	JPForm bool

	Shell            *bool // run the command through /bin/sh -c
	Enable           *bool // nil means enabled
	RequiresApproval *bool // true: a person approves each call first (run = "ask"); see [Entry.RunMode]
	ClearEnv         *bool // pass only PATH, HOME and Env
	SelfDescribe     *bool // nil: ask the binary exactly when Parameters is nil
	// Pin holds back a tool whose definition from the binary differs from
	// the one accepted, as a server's tools are held (true). nil and false:
	// a rebuilt binary's definitions are served as they are.
	Pin *bool

	Summary     *string // one line; served as the MCP description
	Description *string // may contain {{description}}: the binary's text
	Examples    *string // free text for the model

	Parameters map[string]*tool.Parameter // declared or overridden parameters
	// AllowOption holds parameters.NAME.allow_option: true lets the
	// argument's value start an argv element (a shell word) with "-", where
	// the program reads it as an option. Otherwise such a value is refused.
	AllowOption map[string]bool
	Annotations map[string]any // MCP tool annotations
	Options     map[string]any // passed to the binary as tool.options

	// Run is JP's run mode: [RunAsk], [RunUnattended] or [RunSkip]; nil
	// when unset (see [Entry.RunMode]).
	Run *string
	// Answers holds questions.ID.answer: fixed answers to the tool's
	// questions, by question id, used without asking anyone. Numbers are
	// json.Number.
	Answers map[string]any
	// CancellationResponse is the text a call ends with when a person
	// declines it, nil for the default.
	CancellationResponse *string

	Category string            // a [categories.ID] id
	Tags     []string          // manifest metadata
	Timeout  *Duration         // per call; nil: [defaults] or the resolver's 60s
	Workdir  string            // "" means the request's context.root
	Env      map[string]string // extra variables
	// Secrets are the env.NAME = { secret = "…" } variables: references
	// only, resolved when the tool runs ([Entry.ResolveSecrets]), never
	// at load time. A NAME is in Env or in Secrets, never both.
	Secrets map[string]secret.Ref

	// Access is the access policy (docs/security.md): [defaults]' rules,
	// then the layers' in order, nil when none is declared.
	Access *tool.Access
	// accessReplace names the lists ("fs", "net", "env") this layer's
	// access table replaces rather than appends to. Merging reads it.
	accessReplace map[string]bool
	// Sandbox is "true", "false" or "require" ([SandboxOn]…), "" unset:
	// the OS enforces the access rules, if any.
	Sandbox string

	// Settings are what the entry says of each of its tools' calls. Pos
	// says which are set: an unset one is [defaults]', or the zero value.
	// A set zero overrides [defaults]' or an earlier layer's.
	tool.Settings

	Prefix  string   // toolsets only: prepended to every tool name
	Include []string // toolsets only: serve only these tools (binary names)
	Exclude []string // toolsets only: serve all but these tools (binary names)

	// Pos records where each field was set, by TOML key: "command",
	// "summary", "tool" (also for source), "env.NAME", "parameters.NAME",
	// "parameters.NAME.FIELD", ... A later layer's position replaces an
	// earlier one's. Fields filled from [defaults] point at [defaults].
	Pos map[string]Position

	// Place is the [tools.NAME] header (or the first key that mentions
	// the entry) in the first layer that defines the entry.
	Place Position
}

// SelfDescribes reports whether the resolver should ask the binary for its
// schema: the self_describe field when set, otherwise true exactly when the
// entry declares no parameters.
func (e *Entry) SelfDescribes() bool {
	if e.SelfDescribe != nil {
		return *e.SelfDescribe
	}
	return e.Parameters == nil
}

// BinaryTool returns the name of the tool inside the binary: Tool, or Name
// when Tool is empty.
func (e *Entry) BinaryTool() string {
	if e.Tool != "" {
		return e.Tool
	}
	return e.Name
}

// Enabled reports whether the entry is enabled (enable is unset or true).
func (e *Entry) Enabled() bool {
	return e.Enable == nil || *e.Enable
}

// Key returns the entry's table name as written in TOML, such as
// "tools.greet" or `toolsets."my.set"`, for messages.
func (e *Entry) Key() string {
	section := "tools"
	if e.Toolset {
		section = "toolsets"
	}
	return dotted([]string{section, e.Name})
}

// Position is a place in a configuration file. It is the access rules'
// own type, so a rule keeps where it was written.
type Position = tool.Position

// Command is an entry's command line.
//
// A TOML string is split into Args by shell-word rules (see [SplitWords])
// when it is parsed. With shell = true, Args instead holds the whole string
// as its only element, so that /bin/sh sees it exactly as written.
// A TOML array is used as Args unchanged.
type Command struct {
	Args []string // argv tokens; may hold {{…}} templates
	Raw  string   // the string form as written; "" for the array form
}

// IsZero reports whether no command is set.
func (c Command) IsZero() bool { return len(c.Args) == 0 && c.Raw == "" }

// String returns the command as written: Raw, or the array's tokens joined
// by spaces, quoted where needed.
func (c Command) String() string {
	if c.Raw != "" {
		return c.Raw
	}
	parts := make([]string, len(c.Args))
	for i, a := range c.Args {
		parts[i] = QuoteWord(a)
	}
	return strings.Join(parts, " ")
}

// Duration is a TOML duration string such as "30s" or "2m".
type Duration struct {
	time.Duration
}

// MarshalText writes the duration in time.Duration's String form.
func (d Duration) MarshalText() ([]byte, error) {
	return []byte(d.Duration.String()), nil
}

// UnmarshalText parses a time.ParseDuration string.
func (d *Duration) UnmarshalText(text []byte) error {
	v, err := time.ParseDuration(string(text))
	if err != nil {
		return err
	}
	d.Duration = v
	return nil
}

// Category is one [categories.ID] table.
type Category struct {
	ID          string // the table key
	Name        string // for display
	Description string // one line
	Icon        string // free text: an emoji, a name or a URL
}
