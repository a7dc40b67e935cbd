package binary

import (
	"context"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/internal/invoke"
	"github.com/toolhost/toolhost/internal/invoke/sandbox"
	"github.com/toolhost/toolhost/tool"
)

// What only the binaries know of a call (the sandbox's denial, the
// process's exit status and bytes) goes to the call's audit line
// (catalog.NoteRun…). The catalog writes the line.

// noteDenial records the sandbox's refusal the outcome reports.
func noteDenial(ctx context.Context, d *sandbox.Denial) {
	if d != nil {
		catalog.NoteDenial(ctx, d.What)
	}
}

// noteRun records a finished run request's process: its exit status and
// the bytes of its request and stdout, summed over a call's rounds.
// format_arguments and schema requests are not the call's.
func noteRun(ctx context.Context, action tool.Action, res *invoke.Result) {
	if res != nil && action == tool.ActionRun {
		catalog.NoteRun(ctx, res.ExitCode, res.RequestSize, len(res.Stdout))
	}
}

// noteSent records the bytes of a request sent to a long-lived process.
func noteSent(ctx context.Context, size int) { catalog.NoteSent(ctx, size) }

// profileOf names the sandbox a binary runs in: "default" (the default
// profile and the entry's rules), "custom" (the entry's access rules
// alone), "off" (nothing enforced).
func profileOf(p *sandbox.Policy) string {
	switch {
	case !p.Enforced():
		return "off"
	case p.Mode == sandbox.ModeOn || p.Mode == sandbox.ModeRequire:
		return "default"
	}
	return "custom"
}
