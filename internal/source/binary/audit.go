package binary

import (
	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/internal/invoke"
	"github.com/toolhost/toolhost/internal/invoke/sandbox"
	"github.com/toolhost/toolhost/tool"
)

// What only the binaries know of a call (the sandbox's denial, the
// process's exit status and bytes) goes to the call's audit line in the
// [catalog.CallResult] of each round. The catalog writes the line.

// noteRun records a finished run request's process in r: its exit status
// and the bytes of its request and stdout. format_arguments and schema
// requests are not the call's.
func noteRun(r *catalog.CallResult, action tool.Action, res *invoke.Result) {
	if res != nil && action == tool.ActionRun {
		exit := res.ExitCode
		r.Exit = &exit
		r.BytesIn += int64(res.RequestSize)
		r.BytesOut += int64(len(res.Stdout))
	}
}

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
