// Package tool defines wire protocol v1 between a host and a local tool
// binary. It defines the request the host writes to the binary's stdin. It
// defines the schema response that describes the binary's tools, and the
// outcome of a run.
//
// A host that wants the tools a binary offers writes one request and reads one
// response:
//
//	req := tool.Request{Protocol: tool.Version, Context: tool.Context{Action: tool.ActionSchema, Root: root}}
//	data, _ := json.Marshal(req)      // → binary's stdin, then close stdin
//	resp, err := tool.DecodeSchemaResponse(stdout)
//	schema := tool.InputSchema(resp.Tools[0].Parameters) // JSON Schema for tools/list
//
// A binary does the reverse with [DecodeRequest] and writes an [Outcome].
//
// Flow: host → [Request] on stdin → binary → [SchemaResponse] or [Outcome] on stdout.
//
// The package also holds the host's types for what a configuration says
// of a tool: its access policy ([Access]) and its other settings
// ([Settings]). Package config decodes them. The sandbox and the catalog
// enforce them.
//
// # The protocol (normative)
//
// This section is the specification. docs/protocol.md is the guide for
// authors in other languages, with a worked example in POSIX sh. Where they
// differ, this text wins.
//
// A tool binary is started once per request. The host writes exactly one
// JSON object (UTF-8) to the binary's stdin and then closes stdin. The binary
// writes exactly one JSON document to stdout and exits. The working directory
// is context.root unless the user's configuration sets another one. The
// environment is the host's, plus or restricted to what the configuration
// says. A binary may ignore stdin entirely. JP binaries read argv instead,
// see below. The host tolerates a binary that exits without reading it.
//
// # The request
//
//	{"protocol":"1",
//	 "context":{"action":"run","root":"/abs/workspace","workspace_id":"w-1","conversation_id":"s-1","access":null},
//	 "tool":{"name":"read_file","arguments":{"path":"a.txt"},"answers":{},"options":{}}}
//
// Hosts send every field shown, in this order, as compact JSON:
//
//   - protocol is "1". A binary that receives a version it does not speak
//     answers with an error outcome naming the versions it speaks. An absent
//     protocol means "1". JP hosts send none.
//   - context.action is "schema", "run" or "format_arguments".
//   - context.root is the absolute workspace root. workspace_id and
//     conversation_id are always present strings. They are stable ids a
//     tool may use to scope state it keeps. access is null or the JP
//     assistant's access policy object, passed through untouched.
//   - tool is absent for "schema" and present for the other actions.
//     tool.name is the name of the tool inside the binary. A binary may
//     offer several. Arguments is an object holding the call's arguments.
//     They are already checked against the tool's parameters, with defaults
//     filled in. answers is an object holding the answers to earlier
//     questions keyed by question id. options is the free-form options
//     table of the user's configuration entry. All three are objects, {}
//     when empty, never null.
//
// # Compatibility rules
//
// Both sides ignore fields they do not know, anywhere. So later minor
// versions can add fields. A reader treats an optional field that is absent
// and one that is null alike. "default": null means "no default", and
// "trace": null an empty trace. Writers should send the full shapes shown
// here. Writers spell field names exactly as here.
//
// # Numbers and null
//
// Numbers are JSON numbers, and hosts keep them exact end to end. The model
// may write an argument as 1234567890123456789. It is written on stdin with
// every digit. toolhost holds it as a json.Number, never a float64. A
// reader should keep that exactness where it matters. In Go, decode with
// json.Decoder.UseNumber. [DecodeRequest] does so for tool.arguments,
// tool.answers and tool.options. It gives json.Number values, which
// re-encode byte for byte. Elsewhere use an arbitrary-precision parser.
// Python's json module keeps integers exact by itself. parse_float=Decimal
// keeps fractions. A float64 reader silently turns 9007199254740993 into
// 9007199254740992. In tool.arguments an explicit null for an optional
// parameter means the same as leaving it out: absent. So its default
// applies.
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
// "tools" is required. It may be empty. In each tool only name is required,
// and names are unique within the response. Names should match
// ^[a-zA-Z0-9_-]{1,64}$, which is what LLM providers accept. Hosts report
// others. summary is one line, served as the MCP description. Description
// is longer text. Annotations are MCP tool annotations such as readOnlyHint.
// Examples is free text.
//
// A parameter is a JSON-Schema-like node ([Parameter]). Its fields are
// type, summary, description, required, default, enum, items and
// properties. type is a string or a list of strings. items is the node of
// an array's elements, and properties the nodes of an object's fields. The
// JSON Schema constraint keywords are minimum, maximum, minLength,
// maxLength, pattern, format, minItems and maxItems. The required rule
// holds at every level. A parameter is required unless it has a non-null
// default or says "required": false. Empty enum and properties mean the
// same as absent ones. [InputSchema] turns a parameter map into the JSON
// Schema object that LLM providers accept. Summaries, else descriptions,
// become "description". Required parameters are listed in "required".
// Objects with properties get "additionalProperties": false.
//
// The answer to "schema" should not depend on context.root. It must have
// no side effects, and should come quickly. Hosts cache it per binary and
// ask again only when the binary changes. The cache key is the binary's
// path, size and modification time. toolhost also keys on the inode and
// change time. It keys on script files named in the command too, as in
// "python3 tool.py".
//
// # Actions "run" and "format_arguments"
//
// The binary answers with one [Outcome]. Its "type" says which:
//
//	{"type":"success","content":"text"}
//	{"type":"error","message":"what failed","trace":["cause"],"transient":false}
//	{"type":"needs_input","question":{"id":"overwrite","text":"Overwrite a.txt?","pre_amble":null,
//	  "answer_type":"Boolean","default":false}}
//
// The kinds:
//
//   - success: content is the result, given to the model as text. It is a
//     string and required.
//   - error: the tool ran and failed. message says what failed. trace
//     lists causes, outermost first. transient says whether the same call
//     may succeed if retried.
//   - needs_input: the tool needs an answer before it can go on. question.id
//     keys the answer. It is required and non-empty, and JP also forbids
//     ".". text is one line. pre_amble is optional text shown before it.
//     answer_type is required. It is "Boolean", "Text" or
//     {"Select":{"options":["a","b"]}}, as the JP assistant spells it.
//     default is the answer to use when nobody can be asked, or null.
//
// After needs_input the process exits. The host gets an answer from the
// user, from answers supplied in advance, or from the default. It runs the
// binary again with the same arguments and tool.answers[id] set. The
// answer is a JSON boolean for Boolean, a string for Text, and one of the
// options for Select.
// Answers accumulate over rounds. So a tool may ask several questions, one
// per run. Hosts bound the number of rounds. Sometimes no answer can be had
// and the question has no default. The host then reports the question to
// its caller. Over MCP that is a tool error carrying the question text.
//
// For "format_arguments" the binary renders tool.arguments for a human who is
// about to approve the call. It must have no side effects and should not
// ask questions. Success content is shown verbatim. Any other answer means
// the host falls back to its own rendering of the arguments.
//
// # Stdout, stderr and exit status
//
// Stdout carries the response and nothing else. A binary logs to stderr.
// The host never parses stderr. It keeps the last 64 KiB to attach to
// errors. Whitespace around the JSON document is allowed. The host reads
// stdout as follows:
//
//   - stdout holding one outcome is believed, whatever the exit status.
//   - otherwise, with a non-zero exit status, it is an error outcome
//     carrying the exit status and the stderr tail.
//   - otherwise the exit status is 0. For a binary that described itself
//     (answered "schema"), it is a protocol error quoting the start of
//     stdout. Partial JSON, two documents, logs before the JSON or nothing
//     are not an answer. A plain command may have its parameters declared
//     in the host's configuration. For it, stdout is success content. So
//     commands that do not speak the protocol just work.
//
// For "schema", anything but a schema response with exit status 0 is an
// error the host diagnoses for the user.
//
// Each key once. An object holding the same key twice, at any depth, is
// not an outcome, a schema response or an event. Keys are compared as they
// decode, so "a" and "\u0061" are one key. The decoders here refuse such
// an object with an error naming the key and its object: "duplicate key
// "name" in /tools/0". JSON readers disagree on which value counts.
//
// A binary exits 0 after writing any outcome, including an error outcome.
// It exits non-zero only when it could not write one. A binary may receive
// a request it cannot understand. That is empty stdin, invalid JSON,
// another protocol version, an unknown action or tool name, or arguments
// of the wrong type. It then writes an error outcome naming the problem
// and exits with status 2. A binary started by hand with stdin on a
// terminal should print a one-line hint to stderr instead of waiting for
// input.
//
// # Encoding
//
// Outcomes and questions are byte-compatible with the JP assistant's
// serde_json output. That output is compact, with fields in the order shown.
// Every field of the kind is present: pre_amble and default as null when
// unset, trace as []. json.Marshal escapes <, > and & as \u003c, \u003e
// and \u0026. That is valid JSON but not JP's bytes. Encode with a
// [json.Encoder] after SetEscapeHTML(false) to get them. Go also always
// escapes U+2028 and U+2029. JP does not. Readers accept both.
//
// # Limits
//
// The host enforces a per-call timeout, by default 60 s and configurable
// per entry. After it the binary's whole process group receives SIGTERM.
// After a grace period (default 2 s) it receives SIGKILL. Stdout is capped,
// by default at 16 MiB. A binary that writes more is killed and the call
// fails. Of stderr only the last 64 KiB are kept.
//
// # JP compatibility
//
// Binaries written for the JP assistant's local-tool protocol take the
// context and tool objects as argv elements instead of stdin. They do so
// through command templates such as "jp-tools {{context}} {{tool}}". Hosts
// split the command into words first, then render each word. {{context}}
// and {{tool}} become one argv element of compact JSON each: the objects
// of the request. {{tool}} is null for "schema". {{tool.arguments.x}}
// renders a string, number or boolean bare, and an object or array as
// compact JSON. A missing value renders as null. The request is still
// written on stdin, which such binaries ignore. Their outcome JSON is
// byte-compatible with [Outcome]. The JP context object carries the same
// fields as context here.
//
// # Protocol v2
//
// A binary opts in to protocol v2 by answering "schema" with
// "protocol":"2" beside "tools". The host then sends it requests with
// "protocol":"2". Decode them with [DecodeRequestV2]. A binary that does
// not opt in is a v1 binary and sees nothing of what follows. Everything
// above still holds. v2 adds:
//
//   - Titles, icons and schemas, per tool in the schema answer. "title" is
//     a display name. "icons" is [{"src", "mime_type"?, "sizes"?}].
//     "input_schema" is any JSON Schema object with "type":"object" at its
//     root, $defs and $ref allowed. It comes instead of "parameters", and
//     giving both is an error. "output_schema" is the JSON Schema of the
//     structured value a success carries. A v1 answer with any of these is
//     refused.
//   - Event lines. stdout becomes newline-delimited JSON: zero or more event
//     lines, then the outcome as the last non-blank line. An event is
//     {"type":"progress","progress":3,"total":10,"message":"…"}, where
//     progress increases and total is optional. Or it is
//     {"type":"log","level":"info","message":"…"}, with level one of
//     [LogLevels], default "info". Hosts forward events live. A malformed
//     line is a protocol error of that call. See [DecodeStream].
//   - Structured output. A success may carry "structured", a value matching
//     the output schema. Hosts validate it. A mismatch is an error outcome
//     naming the field. Such a success needs no "content". Hosts render
//     the structured value as JSON text.
//   - Content blocks. A success may carry "blocks": {"type":"text","text"},
//     {"type":"image","data":BASE64,"mime_type":"image/…"},
//     {"type":"audio","data":BASE64,"mime_type":"audio/…"},
//     {"type":"resource_link","uri","name","mime_type"?} or an embedded
//     resource {"type":"resource","uri","mime_type"?} with either "text" or
//     "data" (BASE64).
//   - Several questions. A needs_input may carry "questions" instead of
//     "question". That is a list, with unique ids. They are answered
//     together, and the answers arrive keyed by id as in v1. Two answer
//     types are added. "Secret" is a text the host never logs nor echoes.
//     The other is {"Number":{"minimum"?,"maximum"?,"integer"?}}. A Select
//     may add "titles", a label per option. It may add "multiple": the
//     answer is a list of distinct options. It may add "legacy_titles":
//     labels in MCP's deprecated enumNames style.
//
// Decoders: [DecodeOutcomeV2], [DecodeEvent], [DecodeStream]. Golden
// vectors of every shape are in testdata/outcome_v2, testdata/event,
// testdata/stream and testdata/schema/v2_*.
//
// # Long-lived mode
//
// A v2 binary may serve many requests over one stdin/stdout. It declares
// so with "long_lived":true beside "protocol":"2" in its schema answer. A
// v1 answer with it is refused. The host may then start it with the same
// argv and the environment variable [LongLivedEnv] (TOOLHOST_LONG_LIVED)
// set to "1". Started without it, the binary is one-shot as above. The
// host always may run it so. One-shot is the default and the fallback.
// Schema requests are always one-shot. In long-lived mode:
//
//   - stdin carries one JSON object a line. Requests are each a v2 request
//     with an "id": {"id":"7","protocol":"2","context":{…},"tool":{…}}. The
//     id is a string, unique among the requests in flight. Cancel messages
//     are {"cancel":"7"} ([Cancel], [DecodeCancel]).
//   - stdout carries one JSON object a line. Each is tagged with the id of
//     the request it belongs to ([Tagged], [DecodeTagged]). First come zero
//     or more events, {"id":"7","event":{"type":"progress",…}}. Then comes
//     the outcome, {"id":"7","outcome":{"type":"success",…}}. It ends the
//     request. Lines of different requests may interleave. Nothing else may
//     be printed on stdout.
//   - Requests may be served concurrently or one at a time. A cancelled
//     request should end soon and still be answered with an outcome. The
//     host drops that outcome. No outcome may come by the request's
//     deadline plus its grace delay (2s). The host then gives the request
//     up. It sends the process no new request. It kills its process group
//     once the other requests in flight have ended, or at once if there are
//     none. A process that has printed no line at all by then is taken not
//     to serve long-lived mode. A binary that reads its stdin to the end
//     never starts. The host runs the binary one-shot from then on, until
//     it changes.
//   - At the end of stdin the binary finishes the requests in flight and
//     exits 0. A binary may exit mid-request. It then ends those requests
//     as a crash does one-shot. Their error outcomes carry the exit status
//     and stderr. The host may fail to read a line as a tagged line, or
//     find an id no request has. It then stops using the process. It runs
//     the requests concerned one-shot.
//
// Golden vectors: testdata/tagged, testdata/cancel, testdata/request_v2
// and testdata/schema/v2_long_lived. Package sdk's Main does all of it.
package tool
