// Package settings passes what a configuration says of each tool to the
// catalog's tool, the same way for every source. An entry's settings
// ([tool.Settings]), run mode, fixed answers and cancellation response
// reach a binary's tools and an MCP server's alike. A remote's tools have
// no entry: its table and [defaults] say it for them.
//
// A new field of [tool.Settings] needs no line here: the settings pass as
// one value.
package settings

import (
	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/internal/jsonclone"
)

// FromEntry sets on t what the entry e says of each tool it serves, with
// [defaults] already applied by the configuration: the settings, the
// run mode, the fixed answers and the cancellation response. Unset
// settings leave t's as they are.
func FromEntry(t *catalog.Tool, e *config.Entry) {
	config.LaySettings(&t.Settings, &e.Settings, e.Pos)
	t.Run = catalog.RunMode(e.RunMode())
	t.RequiresApproval = t.Run == catalog.RunAsk
	t.Answers = jsonclone.Map(e.Answers)
	if e.CancellationResponse != nil {
		t.CancellationResponse = *e.CancellationResponse
	}
}

// FromRemote sets on t, a tool of the remote r, the settings of
// [defaults] d, then those r's table sets. Unset settings leave t's as
// they are. The remote's source may then tighten them with what the
// provider's manifest says.
func FromRemote(t *catalog.Tool, r *config.Remote, d *config.Defaults) {
	config.LaySettings(&t.Settings, &d.Settings, d.Pos)
	config.LaySettings(&t.Settings, &r.Settings, r.Pos)
}
