package tool

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolhost/toolhost/internal/dupkey"
	"github.com/toolhost/toolhost/internal/wirejson"
)

// Version is the protocol version this package speaks, as sent in
// [Request.Protocol].
const Version = "1"

// Action names what a [Request] asks the binary to do.
type Action string

// The actions of protocol v1.
const (
	ActionSchema          Action = "schema"           // describe the binary's tools
	ActionRun             Action = "run"              // execute a call and return an Outcome
	ActionFormatArguments Action = "format_arguments" // render a call's arguments for a human
)

// Valid reports whether a is one of the actions of protocol v1.
func (a Action) Valid() bool {
	switch a {
	case ActionSchema, ActionRun, ActionFormatArguments:
		return true
	}
	return false
}

// Request is the one JSON object a host writes to a tool binary's stdin.
type Request struct {
	// ID tags a request sent to a long-lived process (protocol v2, see
	// "Long-lived mode"). It is "" in one-shot requests, where it is omitted.
	ID       string  `json:"id,omitempty"`
	Protocol string  `json:"protocol"`
	Context  Context `json:"context"`
	Tool     *Call   `json:"tool,omitempty"` // nil for ActionSchema
}

// Context is the "context" object of a [Request]: what is asked and where.
// It is not a context.Context. Variables holding one are named tc.
type Context struct {
	Action         Action          `json:"action"`
	Root           string          `json:"root"`
	WorkspaceID    string          `json:"workspace_id"`
	ConversationID string          `json:"conversation_id"`
	Access         json.RawMessage `json:"access"` // null, or JP's access policy object, passed through
}

// MarshalJSON writes Access as null when it is empty. So the field is always
// present as the protocol requires.
func (tc Context) MarshalJSON() ([]byte, error) {
	type plain Context
	if len(bytes.TrimSpace(tc.Access)) == 0 {
		tc.Access = json.RawMessage("null")
	}
	return Marshal(plain(tc))
}

// Call is the "tool" object of a [Request]: one call of one tool.
//
// [DecodeRequest] decodes the three maps as encoding/json does with
// UseNumber. Objects are map[string]any and arrays []any. Numbers are
// json.Number holding the digits exactly as written, never float64. So
// 1234567890123456789 reaches the tool whole and re-encodes byte for byte.
type Call struct {
	Name      string         `json:"name"`      // the tool's name inside the binary
	Arguments map[string]any `json:"arguments"` // the call's arguments
	Answers   map[string]any `json:"answers"`   // answers to earlier questions, by question id
	Options   map[string]any `json:"options"`   // the entry's free-form options table
}

// MarshalJSON writes nil maps as {}. So binaries never see null where they
// expect an object.
func (c Call) MarshalJSON() ([]byte, error) {
	type plain Call
	if c.Arguments == nil {
		c.Arguments = map[string]any{}
	}
	if c.Answers == nil {
		c.Answers = map[string]any{}
	}
	if c.Options == nil {
		c.Options = map[string]any{}
	}
	return Marshal(plain(c))
}

// Errors returned by [DecodeRequest]. Each names a problem a tool binary
// reports back to the host as an error outcome.
var (
	ErrEmptyRequest  = errors.New("empty request on stdin: expected one JSON request object")
	ErrVersion       = errors.New("unsupported protocol version")
	ErrUnknownAction = errors.New("unknown action")
	ErrMissingTool   = errors.New(`request has no "tool" object`)
)

// DecodeRequest decodes one request as a binary receives it on stdin. It
// checks what every binary would otherwise check itself. The document is
// one JSON object, and the protocol version is supported. An absent
// version is taken as "1", as JP hosts send none. The action is known, and
// run and format_arguments carry a tool object with a name. Unknown fields are
// ignored. Nil argument, answer and option maps are replaced by empty ones.
func DecodeRequest(data []byte) (*Request, error) {
	return decodeRequestOf(data)
}

// decodeRequestOf is DecodeRequest accepting version 1 and the extra versions.
func decodeRequestOf(data []byte, extra ...string) (*Request, error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return nil, ErrEmptyRequest
	}
	req, ok := scanRequest(data)
	var err error
	if !ok {
		req, err = decodeRequest(data)
	}
	if err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			return nil, fmt.Errorf("malformed request: %s", describeTypeError("the request", typeErr))
		}
		var syntaxErr *json.SyntaxError
		if errors.As(err, &syntaxErr) { // say what was read: "invalid character 'o' in literal null" alone puzzles
			return nil, fmt.Errorf("request is not valid JSON (it starts with %q): %w", start(data, 24), err)
		}
		if errors.As(err, new(*dupkey.Error)) {
			return nil, fmt.Errorf("malformed request: %w", err)
		}
		return nil, fmt.Errorf("request is not valid JSON: %w", err)
	}
	if a := bytes.TrimSpace(req.Context.Access); bytes.Equal(a, []byte("null")) {
		req.Context.Access = nil
	}
	if req.Protocol == "" {
		req.Protocol = Version
	}
	if req.Protocol != Version && !slices.Contains(extra, req.Protocol) {
		speaks := strconv.Quote(Version)
		for _, v := range extra {
			speaks += " and " + strconv.Quote(v)
		}
		return nil, fmt.Errorf("%w %q: this binary speaks protocol %s", ErrVersion, req.Protocol, speaks)
	}
	if req.Context.Action == "" {
		return nil, fmt.Errorf("%w: the request has no context.action (want %q, %q or %q)", ErrUnknownAction,
			ActionSchema, ActionRun, ActionFormatArguments)
	}
	if !req.Context.Action.Valid() {
		return nil, fmt.Errorf("%w %q: want %q, %q or %q", ErrUnknownAction, req.Context.Action,
			ActionSchema, ActionRun, ActionFormatArguments)
	}
	if req.Context.Action != ActionSchema {
		if req.Tool == nil || req.Tool.Name == "" {
			return nil, fmt.Errorf("%w with a name for action %q", ErrMissingTool, req.Context.Action)
		}
	}
	if req.Tool != nil {
		if req.Tool.Arguments == nil {
			req.Tool.Arguments = map[string]any{}
		}
		if req.Tool.Answers == nil {
			req.Tool.Answers = map[string]any{}
		}
		if req.Tool.Options == nil {
			req.Tool.Options = map[string]any{}
		}
	}
	return req, nil
}

// decodeRequest decodes the request object by its fields. It does not
// reflect over the Request types. A tool binary decodes one request per
// process, and reflection's first-use cost is part of its start-up. See
// bench/startup. Type errors are *json.UnmarshalTypeError with the field's
// path, as decoding into a Request would report them. Keys match exactly.
func decodeRequest(data []byte) (*Request, error) {
	var top map[string]json.RawMessage
	if err := decodeOne(data, &top); err != nil {
		return nil, err
	}
	var req Request
	if err := decodeField(top, "protocol", "", &req.Protocol); err != nil {
		return nil, err
	}
	if err := decodeField(top, "id", "", &req.ID); err != nil {
		return nil, err
	}
	var tc map[string]json.RawMessage
	if err := decodeField(top, "context", "", &tc); err != nil {
		return nil, err
	}
	var action string
	for _, f := range []struct {
		key string
		v   *string
	}{{"action", &action}, {"root", &req.Context.Root}, {"workspace_id", &req.Context.WorkspaceID}, {"conversation_id", &req.Context.ConversationID}} {
		if err := decodeField(tc, f.key, "context.", f.v); err != nil {
			return nil, err
		}
	}
	req.Context.Action = Action(action)
	if a, ok := tc["access"]; ok {
		req.Context.Access = a
	}
	if raw, ok := top["tool"]; ok && !isNull(raw) {
		var call map[string]json.RawMessage
		if err := decodeField(top, "tool", "", &call); err != nil {
			return nil, err
		}
		req.Tool = &Call{}
		if err := decodeField(call, "name", "tool.", &req.Tool.Name); err != nil {
			return nil, err
		}
		for _, f := range []struct {
			key string
			m   *map[string]any
		}{{"arguments", &req.Tool.Arguments}, {"answers", &req.Tool.Answers}, {"options", &req.Tool.Options}} {
			if err := decodeField(call, f.key, "tool.", f.m); err != nil {
				return nil, err
			}
		}
	}
	return &req, nil
}

// decodeField decodes obj[key], when present, into v. v is a *string or a
// pointer to a map. A wrong JSON type is reported with the field's path
// (prefix+key). null leaves v unchanged, as encoding/json does. Numbers
// decode as json.Number, keeping every digit as written. The host keeps
// numbers exact, and a float64 would turn 9007199254740993 into
// 9007199254740992.
func decodeField(obj map[string]json.RawMessage, key, prefix string, v any) error {
	raw, ok := obj[key]
	if !ok || isNull(raw) {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) && typeErr.Field == "" {
			typeErr.Field = prefix + key
		} else if errors.As(err, &typeErr) {
			typeErr.Field = prefix + key + "." + typeErr.Field
		}
		return err
	}
	return nil
}

func isNull(raw json.RawMessage) bool { return bytes.Equal(bytes.TrimSpace(raw), []byte("null")) }

// start returns the first n bytes of data, or all of it, cut at a UTF-8
// boundary.
func start(data []byte, n int) string {
	if len(data) <= n {
		return string(data)
	}
	for n > 0 && !utf8.RuneStart(data[n]) {
		n--
	}
	return string(data[:n]) + "…"
}

// describeTypeError names the field of a document that holds a JSON value
// of the wrong type. The argument what names the document, e.g. "the
// request". It speaks in JSON terms rather than Go's:
// `field "tool.arguments" is an array, want a JSON object`.
func describeTypeError(what string, e *json.UnmarshalTypeError) string {
	want := "a JSON " + jsonKind(e.Type)
	if e.Field == "" {
		return fmt.Sprintf("%s is %s, want %s", what, article(e.Value), want)
	}
	return fmt.Sprintf("field %q is %s, want %s", e.Field, article(e.Value), want)
}

// jsonKind names the JSON type that decodes into t.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Map, reflect.Struct:
		return "object"
	case reflect.Slice, reflect.Array:
		return "array"
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return "number"
	case reflect.Pointer:
		return jsonKind(t.Elem())
	}
	return "value"
}

// article prefixes a JSON value kind with "a" or "an". The kind is spelled
// as encoding/json reports it: "array", "number 5", "string".
func article(value string) string {
	if value != "" && strings.ContainsRune("aeiou", rune(value[0])) {
		return "an " + value
	}
	return "a " + value
}

// Marshal encodes v like json.Marshal but without escaping <, > and &. So
// the bytes equal what the JP assistant's serde_json writes. `<b>&`
// reaches a tool as `<b>&`, not `\u003cb\u003e\u0026`. It is the one
// encoder of everything toolhost writes on a wire. That is the stdin
// request, argv templates, MCP and HTTP answers. Take a value whose
// MarshalJSON uses Marshal. json.Marshal of it re-escapes the bytes. So
// encode with Marshal at the top. A [Request] is written without
// reflection, the same bytes.
func Marshal(v any) ([]byte, error) {
	switch r := v.(type) {
	case *Request:
		if r != nil {
			return appendRequest(make([]byte, 0, requestSize(r)), r)
		}
	case Request:
		return appendRequest(make([]byte, 0, requestSize(&r)), &r)
	}
	return wirejson.Marshal(v)
}

// requestSize is room for r's bytes, so that appendRequest rarely grows
// its buffer: the fields of known length, and 384 bytes for the keys and a
// small call.
func requestSize(r *Request) int {
	tc := r.Context
	return 384 + len(r.ID) + len(tc.Root) + len(tc.WorkspaceID) + len(tc.ConversationID) + len(tc.Access)
}

// decodeOne decodes exactly one JSON value from data into v. It rejects
// anything but whitespace after it. It rejects an object holding a key
// twice with a [*dupkey.Error]. encoding/json would keep the last value
// silently.
func decodeOne(data []byte, v any) error {
	if err := dupkey.Check(data); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(v); err != nil {
		return err
	}
	if rest := bytes.TrimSpace(data[dec.InputOffset():]); len(rest) > 0 {
		return fmt.Errorf("unexpected data after the JSON value: %.40q", rest)
	}
	return nil
}
