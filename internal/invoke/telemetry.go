package invoke

import (
	"github.com/toolhost/toolhost/internal/telemetry"
	"github.com/toolhost/toolhost/tool"
)

// endRunSpan ends the span of one [Run] with what the host knows of it.
// That is the action, the request's and stdout's sizes, the exit status,
// and whether it was sandboxed. Never the request or the output themselves.
func endRunSpan(span telemetry.Span, spec *Spec, req *tool.Request, res *Result, err error) {
	span.String(telemetry.AttrAction, string(req.Context.Action))
	span.Bool(telemetry.AttrSandboxed, spec.Sandbox.Enforced())
	if res != nil {
		span.Int(telemetry.AttrExitCode, int64(res.ExitCode))
		span.Int(telemetry.AttrStdoutBytes, int64(len(res.Stdout)))
	}
	span.End(err)
}
