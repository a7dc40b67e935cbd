package audit

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/toolhost/toolhost/internal/wirejson"
)

// Record is one call as the audit log keeps it: one JSON line. Every field
// but Time, Tool and Outcome may be empty. Empty fields are left out of the
// line, except arguments (null when absent).
type Record struct {
	Time   time.Time // when the call started; zero: [Log.Write] sets now
	Face   string    // the face that took the call: "mcp", "http", "cli" or "go"
	Client Client    // who asked
	// Workspace is the root of the workspace whose configuration served
	// the call, absolute, "" unknown. One log holds the calls of every
	// workspace: [Log.SetWorkspace] fills it.
	Workspace string
	Tool      string // the tool's served name
	Source    string // where the tool comes from: a command line, "dynamic", an MCP server…

	// Arguments are the call's arguments as the client sent them (a JSON
	// object). [Log.Write] redacts them (see [Redact]) and caps their size
	// before writing. A reader gets what was written.
	Arguments json.RawMessage
	// ArgumentsSize is the size in bytes of the arguments after redaction.
	// [Log.Write] sets it when it kept only the first [Options.MaxArguments]
	// bytes. Arguments is then a JSON string holding that prefix.
	ArgumentsSize int

	Approval Approval // the approval decision, if one was taken
	Sandbox  Sandbox  // the sandbox the tool ran in, and any denial

	Duration time.Duration // from the call's start to its outcome
	Outcome  string        // [OutcomeSuccess], [OutcomeError], [OutcomeRateLimited], [OutcomeNeedsInput] or [OutcomeHostError]
	// ExitStatus is the tool process's exit status. It is nil when no process
	// ended with the call. Examples are an in-process tool, a long-lived
	// process, or a call refused before it ran. -1 means killed by a signal.
	ExitStatus *int
	BytesIn    int64 // bytes sent to the tool (its request)
	BytesOut   int64 // bytes the tool answered (its stdout)

	// Cut says what the face left out of the result it sent, when it
	// sent less than the whole. The MCP face bounds a result to its
	// tool's max_output. The CLI and the HTTP call API send it whole.
	Cut Cut
}

// Cut is what a face left out of a call's result: its sizes and where the
// whole is kept, never its content. The zero Cut means the result was
// sent whole.
type Cut struct {
	Kept    int64 // bytes of the result sent, the note and link of the cut aside
	LeftOut int64 // bytes of the result left out
	Blocks  int   // content blocks left out whole
	// Result is the id of the whole result kept (the ID of the link
	// toolhost://result/ID). It is "" when the whole could not be kept.
	Result string
}

// Client is who made a call.
type Client struct {
	Name    string // MCP clientInfo.name
	Version string // MCP clientInfo.version
	Addr    string // the remote address over HTTP
	TokenID string // [TokenID] of the bearer token the call carried; never the token
}

// Approval is the approval decision of a call.
type Approval struct {
	Decision string // [DecisionApproved], [DecisionDeclined], [DecisionUnattended], [DecisionAsked] or [DecisionRefused]; "" when no approval applied
	By       string // the face that decided: "mcp" (elicitation), "http", "cli"…; "" for config
}

// Sandbox is the sandbox a call's tool ran in.
type Sandbox struct {
	Profile string // "default", "custom" (access rules), "off"; "" unknown
	Denial  string // what the sandbox refused, as the fix names it; "" none
}

// The outcome types of [Record.Outcome].
const (
	OutcomeSuccess = "success" // the tool answered success
	OutcomeError   = "error"   // the tool answered an error (a tool failure: data)
	// OutcomeRateLimited: the call was refused before anything ran, as the
	// tool's rate_limit_per_minute was reached. The client may retry.
	OutcomeRateLimited = "rate_limited"
	OutcomeNeedsInput  = "needs_input" // the call ended on a question nobody answered
	OutcomeHostError   = "host_error"  // the host got no answer: not found, crashed, timeout, refused
)

// The decisions of [Approval.Decision].
const (
	DecisionApproved   = "approved"   // a person approved the call
	DecisionDeclined   = "declined"   // a person declined it; the tool did not run
	DecisionUnattended = "unattended" // the configuration lets it run without asking
	// DecisionAsked: the person is asked in a later request (MCP multi
	// round-trip, the page). This call ended before the answer.
	DecisionAsked = "asked"
	// DecisionRefused: the call was refused before anything ran. Nobody could
	// be asked, as with a client without elicitation or no terminal. Or the
	// configuration says never to run the tool (run = "skip").
	DecisionRefused = "refused"
)

// MarshalJSON writes the record as its audit line, without the newline.
func (r *Record) MarshalJSON() ([]byte, error) {
	return r.appendJSON(nil, r.Arguments), nil
}

// appendJSON appends r's line, without a newline, to b. args are its
// arguments. They must be valid compact JSON or empty.
func (r *Record) appendJSON(b []byte, args []byte) []byte {
	b = append(b, `{"time":"`...)
	b = r.Time.UTC().AppendFormat(b, time.RFC3339Nano)
	b = append(b, '"')
	b = field(b, "face", r.Face)
	if r.Client != (Client{}) {
		b = append(b, `,"client":{`...)
		n := len(b)
		b = field(b, "name", r.Client.Name)
		b = field(b, "version", r.Client.Version)
		b = field(b, "addr", r.Client.Addr)
		b = field(b, "token_id", r.Client.TokenID)
		if len(b) > n && b[n] == ',' {
			b = append(b[:n], b[n+1:]...)
		}
		b = append(b, '}')
	}
	b = field(b, "workspace", r.Workspace)
	b = append(b, `,"tool":`...)
	b = appendString(b, r.Tool)
	b = field(b, "source", r.Source)
	b = append(b, `,"arguments":`...)
	if len(args) == 0 {
		b = append(b, "null"...)
	} else {
		b = append(b, args...)
	}
	if r.ArgumentsSize > 0 {
		b = append(b, `,"arguments_size":`...)
		b = strconv.AppendInt(b, int64(r.ArgumentsSize), 10)
	}
	if r.Approval != (Approval{}) {
		b = append(b, `,"approval":{"decision":`...)
		b = appendString(b, r.Approval.Decision)
		b = field(b, "by", r.Approval.By)
		b = append(b, '}')
	}
	if r.Sandbox != (Sandbox{}) {
		b = append(b, `,"sandbox":{"profile":`...)
		b = appendString(b, r.Sandbox.Profile)
		b = field(b, "denial", r.Sandbox.Denial)
		b = append(b, '}')
	}
	b = append(b, `,"duration_ms":`...)
	b = strconv.AppendFloat(b, float64(r.Duration)/float64(time.Millisecond), 'f', -1, 64)
	b = append(b, `,"outcome":`...)
	b = appendString(b, r.Outcome)
	if r.ExitStatus != nil {
		b = append(b, `,"exit_status":`...)
		b = strconv.AppendInt(b, int64(*r.ExitStatus), 10)
	}
	if r.BytesIn != 0 {
		b = append(b, `,"bytes_in":`...)
		b = strconv.AppendInt(b, r.BytesIn, 10)
	}
	if r.BytesOut != 0 {
		b = append(b, `,"bytes_out":`...)
		b = strconv.AppendInt(b, r.BytesOut, 10)
	}
	if r.Cut != (Cut{}) {
		b = append(b, `,"cut":{"kept":`...)
		b = strconv.AppendInt(b, r.Cut.Kept, 10)
		b = append(b, `,"left_out":`...)
		b = strconv.AppendInt(b, r.Cut.LeftOut, 10)
		if r.Cut.Blocks != 0 {
			b = append(b, `,"blocks_left_out":`...)
			b = strconv.AppendInt(b, int64(r.Cut.Blocks), 10)
		}
		b = field(b, "result_id", r.Cut.Result)
		b = append(b, '}')
	}
	return append(b, '}')
}

// field appends `,"key":"value"` unless value is empty.
func field(b []byte, key, value string) []byte {
	if value == "" {
		return b
	}
	b = append(b, ',', '"')
	b = append(b, key...)
	b = append(b, '"', ':')
	return appendString(b, value)
}

// appendString appends s as a JSON string (wirejson.AppendString).
// Quotes, backslashes and control characters are escaped. Invalid UTF-8
// is replaced by U+FFFD. So every line is valid JSON whatever a client or
// tool sent.
func appendString(b []byte, s string) []byte { return wirejson.AppendString(b, s) }

// wireRecord is the line as encoding/json reads it back.
type wireRecord struct {
	Time          time.Time       `json:"time"`
	Face          string          `json:"face"`
	Client        *wireClient     `json:"client"`
	Workspace     string          `json:"workspace"`
	Tool          string          `json:"tool"`
	Source        string          `json:"source"`
	Arguments     json.RawMessage `json:"arguments"`
	ArgumentsSize int             `json:"arguments_size"`
	Approval      *struct {
		Decision string `json:"decision"`
		By       string `json:"by"`
	} `json:"approval"`
	Sandbox *struct {
		Profile string `json:"profile"`
		Denial  string `json:"denial"`
	} `json:"sandbox"`
	DurationMS *float64 `json:"duration_ms"`
	Outcome    string   `json:"outcome"`
	ExitStatus *int     `json:"exit_status"`
	BytesIn    int64    `json:"bytes_in"`
	BytesOut   int64    `json:"bytes_out"`
	Cut        *struct {
		Kept    int64  `json:"kept"`
		LeftOut int64  `json:"left_out"`
		Blocks  int    `json:"blocks_left_out"`
		Result  string `json:"result_id"`
	} `json:"cut"`
}

type wireClient struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	Addr    string `json:"addr"`
	TokenID string `json:"token_id"`
}

// UnmarshalJSON reads one audit line. A line without time, tool or
// outcome is not an audit line.
func (r *Record) UnmarshalJSON(data []byte) error {
	var w wireRecord
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	if w.Time.IsZero() || w.Tool == "" || w.Outcome == "" || w.DurationMS == nil {
		return fmt.Errorf("audit: not an audit line: time, tool, duration_ms and outcome are required")
	}
	*r = Record{
		Time: w.Time, Face: w.Face, Workspace: w.Workspace, Tool: w.Tool, Source: w.Source,
		ArgumentsSize: w.ArgumentsSize,
		Duration:      time.Duration(math.Round(*w.DurationMS * float64(time.Millisecond))),
		Outcome:       w.Outcome, ExitStatus: w.ExitStatus, BytesIn: w.BytesIn, BytesOut: w.BytesOut,
	}
	if string(w.Arguments) != "null" {
		r.Arguments = w.Arguments
	}
	if w.Client != nil {
		r.Client = Client(*w.Client)
	}
	if w.Approval != nil {
		r.Approval = Approval{Decision: w.Approval.Decision, By: w.Approval.By}
	}
	if w.Sandbox != nil {
		r.Sandbox = Sandbox{Profile: w.Sandbox.Profile, Denial: w.Sandbox.Denial}
	}
	if w.Cut != nil {
		r.Cut = Cut(*w.Cut)
	}
	return nil
}
