package catalog

import (
	"context"

	"github.com/toolhost/toolhost/tool"
)

// Source is where a catalog's tools come from, as the catalog knows it:
// local binaries, MCP servers, a remote catalog. The catalog owns
// everything around a call (lookup, argument validation with defaults,
// approval, the questions and their answers, identity, change
// notification). A source lists its tools and runs one call at a time.
// A source never imports the catalog's implementation nor a face.
//
// A Source must be safe for concurrent use.
type Source interface {
	// Name names the source in messages and in each tool's provenance:
	// "binaries", "mcp:github". It is fixed for the source's life.
	Name() string

	// Tools returns the source's tools with their full detail, enabled or
	// not, each with a unique name. The list may come from a cache: a
	// source whose list is warm starts nothing to answer. The catalog
	// owns the returned values. The source must not modify them later.
	// An error leaves the source's tools out of the catalog and is
	// reported as a problem of the source.
	Tools(ctx context.Context) ([]*Tool, error)

	// Problems returns the problems the last listing found beside its
	// tools: a configuration entry naming a tool the source does not
	// offer, an override that could not apply, a tool left out. The
	// catalog reports them (Catalog.Report) with the source's own. A
	// source that finds none returns nil.
	Problems() []Problem

	// Call runs one round of a call of one of its tools. The catalog has
	// validated req.Args against the tool's input schema (defaults
	// applied) and obtained the approval the tool needs. The source
	// forwards the call whole and returns what the tool answered. A
	// question (a needs_input outcome) comes back to the catalog, which
	// asks it and calls again with the answers. err is for a call that
	// got no answer: the tool could not be reached, or ctx ended. A
	// failure the tool reports is an error outcome.
	Call(ctx context.Context, req CallRequest) (CallResult, error)

	// Format renders a call's arguments for a person about to approve
	// it, as the tool itself would; ok false lets the catalog use its own
	// rendering, name(key=value, …).
	Format(ctx context.Context, name string, args map[string]any) (rendered string, ok bool)

	// Watch registers changed to run after the source's tools change (a
	// server's tools/list_changed, a rebuilt binary). The catalog then
	// lists them again, recomputes its identity and notifies its own
	// subscribers. cancel ends the registration.
	Watch(changed func()) (cancel func())

	// Close ends whatever the source started (processes, connections).
	// The catalog calls it once, from its own Close.
	Close() error
}

// CallRequest is one round of a call, as the catalog hands it to a
// [Source].
type CallRequest struct {
	// Tool is the tool's name as the catalog serves it.
	Tool string
	// Args are the validated arguments, defaults applied. Numbers are
	// json.Number, holding the digits as sent. The source must not
	// modify them.
	Args map[string]any
	// Answers are the answers to the tool's earlier questions in this
	// call, by question id (the configuration's fixed answers win).
	Answers map[string]any
	// Secrets are the values of Answers that the tool asked as Secret.
	// The source keeps them out of what it writes or shows, such as a
	// stderr tail an error quotes. nil when there are none.
	Secrets []string
	// OnEvent, if set, receives the events (progress, log) the tool
	// sends while it runs, as they arrive, from any goroutine.
	OnEvent func(tool.Event)
}

// CallResult is what a [Source] answers to one round of a call. It is a
// struct so that what a source can forward may grow (an MCP server's
// content blocks and structured output, say) without changing the
// interface.
//
// Besides the outcome, it says what only the source knows of the run.
// The call's audit line shows it. These fields count even when Call
// returns an error: a process that timed out still ran.
type CallResult struct {
	// Outcome is the tool's answer: ok, error, or needs_input with its
	// questions.
	Outcome tool.Outcome
	// QuestionsEach says that the questions of a needs_input Outcome
	// count one by one against the call's bound on questions (a binary's
	// questions asked together). Else they count as one round (an MCP
	// server's form).
	QuestionsEach bool
	// Exit is the exit status of the process this round started. It is
	// nil when no process of the round ended, as with a long-lived one.
	Exit *int
	// BytesIn counts the bytes of the request the source sent the tool.
	// BytesOut counts the bytes the tool wrote on stdout. Each is zero
	// when unknown.
	BytesIn, BytesOut int64
	// Denial names what the OS sandbox refused the tool, when the outcome
	// reports that refusal. It is "" otherwise.
	Denial string
}

// Indexer is implemented by a base [Source] ([Catalog.AddBase]) that can
// list its tools without their full detail. Binaries restored from a
// persisted resolution hold each tool's name, summary and enabled flag.
// They decode the rest on first use. The catalog calls the base's Index in
// place of Tools and serves its tools as listed (the source checked
// them). An added source is always listed with Tools, each tool checked.
type Indexer interface {
	// Index returns the source's tools as index lines. See [Index].
	Index(ctx context.Context) (Index, error)
}

// Index is a source's listing in which each tool's detail may come on
// demand.
type Index struct {
	// Tools are the source's tools, enabled or not, each with a unique
	// name.
	Tools []Listed
	// Identity and List, when both set, are the identity and the
	// tools/list result ({"tools":[…]}, compact JSON) of the enabled
	// Tools, as computed when they were persisted. A catalog serving these
	// tools alone serves them without decoding any detail.
	Identity *Identity
	List     []byte
	// Categories are the categories the tools name (a configuration's
	// [categories.ID] tables), sorted by id. [Catalog.Categories]
	// returns them.
	Categories []Category
}

// Listed is one tool of an [Index].
type Listed struct {
	Name, Summary string
	Enabled       bool
	// Detail gives the tool's full detail on demand. Its Name, Summary
	// and Enabled are those above.
	Detail Detailer
	// Args is the tool's compiled input schema, nil when the catalog is
	// to compile it on first use. An Args given is used as it is.
	Args *ArgSchema
	// Refuse, if set, refuses argument values beyond the input schema, as
	// [ArgSchema.WithRefuse] takes it: nil for values it accepts. A
	// binary's rule for values that would be read as options is one. The
	// catalog adds it to the input schema it compiles.
	Refuse func(args map[string]any) *ValidationError
	// Sandbox names the OS sandbox the tool's processes run in:
	// "default", "custom" or "off". The call's audit line shows it. ""
	// when the tool runs in none the source knows of.
	Sandbox string
}

// Detailer gives a listed tool's full detail on demand ([Listed]).
type Detailer interface {
	// Detail returns the tool's full detail, decoding it on first use.
	// The catalog calls it at most once per listing that needs it, and
	// does not modify the result.
	Detail() *Tool
}

// DetailFunc is a [Detailer] that calls itself.
type DetailFunc func() *Tool

// Detail returns f().
func (f DetailFunc) Detail() *Tool { return f() }

// Refresher is implemented by a base [Source] ([Catalog.AddBase]) that
// can check whether its tools changed: for the binaries, a rebuilt
// executable or a schema request to ask again. If they changed, it lists
// them again through its Watch before Refresh returns.
//
// beforeCall says the catalog asks before it looks a called tool up. The
// check is then cheap, at most about once a second, and never makes the
// call wait for work of other tools that may be slow: the source does that
// in the background. Else [Catalog.Refresh] asks, and the source checks
// now. An added source is not asked: it reports its changes through Watch
// as they happen.
type Refresher interface {
	Refresh(ctx context.Context, beforeCall bool) (changed bool, err error)
}
