package telemetry

// The attribute keys of toolhost's spans and metrics. Every attribute
// recorded goes through one of these. Its value is one the host decided: a
// name, a kind, a size, a status. It is never an argument, answer, secret
// or tool output.
const (
	// AttrTool is the called tool's name.
	AttrTool = "toolhost.tool.name"
	// AttrSource is where the tool comes from: "binary", "dynamic", a
	// source's kind.
	AttrSource = "toolhost.tool.source"
	// AttrOutcome is the call's outcome type: success, error or needs_input.
	// It is "host_error" when no outcome could be had.
	AttrOutcome = "toolhost.outcome.type"
	// AttrArgsCount is how many arguments the call was given.
	AttrArgsCount = "toolhost.arguments.count"
	// AttrAction is the protocol action a process was started for (run,
	// schema, format_arguments).
	AttrAction = "toolhost.action"
	// AttrRequestBytes is the size of the request written to the tool's
	// stdin.
	AttrRequestBytes = "toolhost.request.bytes"
	// AttrStdoutBytes is the size of what the tool printed on stdout.
	AttrStdoutBytes = "toolhost.stdout.bytes"
	// AttrExitCode is the tool process's exit status, as OpenTelemetry's
	// semantic conventions name it. -1 means killed or not exited.
	AttrExitCode = "process.exit.code"
	// AttrApproval is an approval's result: approved, declined, pending.
	AttrApproval = "toolhost.approval"
	// AttrSandboxed is whether the process ran confined by the sandbox.
	AttrSandboxed = "toolhost.sandboxed"
	// AttrErrorType is the Go type of a host error, as the semantic
	// conventions' error.type. Examples: "*invoke.Error",
	// "context.deadlineExceededError".
	AttrErrorType = "error.type"
	// AttrPoolState is a long-lived pool's process state: idle or busy.
	AttrPoolState = "toolhost.pool.state"
	// AttrPoolBinary is the binary a long-lived pool runs (its command's
	// base name).
	AttrPoolBinary = "toolhost.pool.binary"
	// AttrPooled is whether a tool run went to a long-lived process.
	AttrPooled = "toolhost.pooled"
)

// The names of a call's spans. They are the call itself ("tools/call
// NAME", see [StartCall]) and its children.
const (
	SpanResolution = "resolution" // finding the tool and its input schema (which may run the binary)
	SpanValidation = "validation" // checking the arguments against the input schema
	SpanApproval   = "approval"   // asking a person (run = "ask")
	SpanToolRun    = "tool run"   // one run of the tool: a process, a pooled process or a handler
	SpanSpawn      = "spawn"      // starting the process (under the sandbox, in its cgroup)
)
