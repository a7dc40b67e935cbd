// Package settings passes what a configuration says of each tool to the
// catalog's tool, the same way for every source. An entry's rate limit,
// run mode, fixed answers and cancellation response reach a binary's
// tools and an MCP server's alike. A remote's tools have no entry: its
// table and [defaults] say it for them.
//
// A new per-tool setting that every source passes unchanged is one line
// in [FromEntry], and one in [FromRemote] when remotes take it too (then
// with the remote's table as a parameter).
package settings

import (
	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/internal/jsonclone"
)

// FromEntry sets on t what the entry e says of each tool it serves, with
// [defaults] already applied by the configuration: the rate limit, the
// run mode, the fixed answers and the cancellation response. Unset
// settings leave t's as they are.
func FromEntry(t *catalog.Tool, e *config.Entry) {
	if e.RateLimit != nil {
		t.RateLimit = *e.RateLimit
	}
	if e.MaxOutput != nil {
		t.MaxOutput = *e.MaxOutput
	}
	t.Run = catalog.RunMode(e.RunMode())
	t.RequiresApproval = t.Run == catalog.RunAsk
	t.Answers = jsonclone.Map(e.Answers)
	if e.CancellationResponse != nil {
		t.CancellationResponse = *e.CancellationResponse
	}
}

// FromRemote sets on t, a remote catalog's tool, what [defaults] d says
// of every tool: its rate limit. The remote's source may then tighten it
// with what the provider's manifest says.
func FromRemote(t *catalog.Tool, d *config.Defaults) {
	if d.RateLimit != nil {
		t.RateLimit = *d.RateLimit
	}
}
