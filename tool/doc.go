// Package tool defines wire protocol v1 between a host and a local tool
// binary: the request the host writes to the binary's stdin, the schema
// response that describes the binary's tools, and the outcome of a run.
//
// A host that wants the tools a binary offers writes one request and reads one
// response:
//
//	req := tool.Request{Protocol: tool.Version, Context: tool.Context{Action: tool.ActionSchema, Root: root}}
//	data, _ := json.Marshal(req)      // → binary's stdin, then close stdin
//	resp, err := tool.DecodeSchemaResponse(stdout)
//	schema := tool.InputSchema(resp.Tools[0].Parameters) // JSON Schema for tools/list
//
// Flow: host → [Request] on stdin → binary → [SchemaResponse] or [Outcome] on stdout.
//
// # The protocol (normative)
//
// This section is the specification. docs/protocol.md is the guide for
// authors in other languages; where they differ, this text wins.
//
// A tool binary is started once per request. The host writes exactly one JSON
// object to the binary's stdin and then closes stdin. The binary writes
// exactly one JSON document to stdout and exits. The working directory is
// context.root unless the user's configuration says otherwise.
//
// The request:
//
//	{"protocol":"1",
//	 "context":{"action":"run","root":"/abs/workspace","workspace_id":"w-1","conversation_id":"s-1","access":null},
//	 "tool":{"name":"read_file","arguments":{"path":"a.txt"},"answers":{},"options":{}}}
//
//   - protocol is "1". A binary that receives a version it does not speak
//     answers with an error outcome naming the versions it speaks.
//   - context.action is "schema", "run" or "format_arguments".
//   - context.root is the absolute workspace root. workspace_id and
//     conversation_id are always present strings; access is null or the JP
//     assistant's access policy object, passed through untouched.
//   - tool is absent for "schema". tool.name is the name of the tool inside
//     the binary; arguments are the call's arguments; answers holds answers to
//     earlier questions keyed by question id; options is the free-form options
//     table of the user's configuration entry.
//
// Unknown fields anywhere must be ignored by both sides, so that later minor
// versions can add fields.
//
// # Action "schema"
//
// The binary answers with a [SchemaResponse]:
//
//	{"tools":[{"name":"read_file","summary":"Read a file.","description":"Longer text.",
//	  "parameters":{"path":{"type":"string","summary":"File to read."},
//	                "limit":{"type":"integer","default":200}},
//	  "annotations":{"readOnlyHint":true},"examples":"read_file path=a.txt"}]}
//
// Only name is mandatory. A parameter is a JSON-Schema-like node ([Parameter]):
// type (a string or a list of strings), summary, description, required,
// default, enum, items, properties, and the JSON Schema constraint keywords
// minimum, maximum, minLength, maxLength, pattern, format, minItems and
// maxItems. The required rule: a parameter is required unless it has a
// default or says "required": false. [InputSchema] turns a parameter map into
// the JSON Schema object that LLM providers accept.
//
// # Actions "run" and "format_arguments"
//
// The binary answers with one [Outcome]:
//
//	{"type":"success","content":"text"}
//	{"type":"error","message":"what failed","trace":["cause"],"transient":false}
//	{"type":"needs_input","question":{"id":"overwrite","text":"Overwrite a.txt?","pre_amble":null,
//	  "answer_type":"Boolean","default":false}}
//
// answer_type is "Boolean", "Text" or {"Select":{"options":["a","b"]}}, as the
// JP assistant spells it. After needs_input the process exits; the host asks
// the question and runs the binary again with tool.answers[id] set to the
// answer (a JSON boolean, string, or one of the select options).
//
// For "format_arguments" the binary renders tool.arguments for a human who is
// about to approve the call. It must have no side effects. Success content is
// shown verbatim; any other answer means the host falls back to its own
// rendering.
//
// # Stdout, stderr and exit status
//
// Stdout carries the response and nothing else: a binary logs to stderr. The
// host never parses stderr; it keeps the last 64 KiB to attach to errors.
// Whitespace around the JSON document is allowed. The host reads stdout as
// follows:
//
//   - stdout holding an outcome is believed, whatever the exit status;
//   - otherwise, with exit status 0, stdout is success content (so plain
//     commands that do not speak the protocol just work);
//   - otherwise it is an error carrying the exit status and the stderr tail.
//
// A binary should exit 0 after writing any outcome, including an error
// outcome, and non-zero only when it could not write one. A binary that
// received a request it cannot decode (empty stdin, invalid JSON, an unknown
// action, arguments of the wrong type) writes an error outcome naming the
// problem and exits with status 2.
//
// # Limits
//
// The host enforces a per-call timeout (default 60 s) after which the whole
// process group receives SIGTERM and, after a grace period, SIGKILL; stdout
// is capped (default 16 MiB). Binaries should answer "schema" quickly and
// without side effects: hosts cache the answer.
//
// # JP compatibility
//
// Binaries written for the JP assistant's local-tool protocol take the
// context and tool objects as argv elements instead of stdin, through command
// templates such as "jp-tools {{context}} {{tool}}". Hosts render those
// templates and still write the request on stdin, which such binaries ignore.
// Their outcome JSON is byte-compatible with [Outcome].
package tool
