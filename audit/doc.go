// Package audit keeps the audit trail of tool calls. It writes one JSON
// line per call, appended to a size-rotated file. It holds the reader that
// lists and follows it (`toolhost audit`).
//
//	log, err := audit.Open(audit.DefaultPath(nil), nil)
//	if err != nil { … }
//	defer log.Close()
//	log.AddSecret(token)             // never written, wherever it shows up
//	err = log.Write(&audit.Record{   // one line, one write(2)
//		Face: "mcp", Tool: "grep", Arguments: args,
//		Duration: d, Outcome: audit.OutcomeSuccess,
//	})
//
// # The line
//
// A [Record] is written as one JSON object on one line. It holds the time,
// face and client. The client is MCP clientInfo, remote address, and a
// [TokenID], never the token. It holds the tool, source and arguments. The
// arguments are redacted by [Redact] and capped. It holds the approval and
// who decided, the sandbox profile and denial, and the duration. It holds
// the outcome type, exit status, and bytes in and out. And it holds what a
// face cut of the result it sent ([Cut]): sizes and a result's id, never
// the result. docs/audit.md lists the fields.
//
// # Writing and reading
//
// [Log] appends a line with a single write(2) on an O_APPEND file. So a
// crash loses at most the lines being written ([Log] says why). [Log]
// rotates the file by size. [Scanner] reads lines. It skips a torn last
// line and reports it. [Files] lists the rotated files oldest first.
// [Follow] waits for new lines.
//
// A face says who called by putting a [Caller] in the call's context
// ([WithCaller]). The catalog reads it ([CallerFrom]) for the record.
//
// Flow: call → [Record] → [Log.Write] (redact, cap, encode, write(2)) →
// audit.jsonl → [Scanner] / [Follow] → `toolhost audit`.
//
// The package imports only the standard library and the ground. From the
// ground it imports internal/wirejson, its JSON string quoting, shared
// with package tool. So the catalog, and any face, may import it.
package audit
