//go:build jsonlib

package tool

import (
	"encoding/json"
	"fmt"
	"strings"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	jsonv1 "github.com/go-json-experiment/json/v1"
)

// Built with the tag jsonlib, package tool decodes and encodes its
// per-call JSON with github.com/go-json-experiment/json (v2). Only `make
// bench` builds so, never a release. The library then replaces the
// hand-written paths: decodePlain, decodePlainSchema, plainTagged,
// plainOutcome, appendRequest and Outcome.MarshalJSON's success and
// error. bench/figures and bench/startup measure a toolhost and an sdk
// tool built so against the ones built without it. Anything v2 refuses goes to the encoding/json
// fallback as before, which words the errors. See docs/dependencies.md.

// jsonLib reports that this build uses the library.
const jsonLib = true

// libNumber decodes a JSON number into an any as json.Number, as
// encoding/json does with UseNumber. Anything else is left to the library.
var libNumber = jsonv2.WithUnmarshalers(jsonv2.UnmarshalFromFunc(func(dec *jsontext.Decoder, v *any) error {
	if dec.PeekKind() != '0' {
		return jsonv2.SkipFunc
	}
	val, err := dec.ReadValue()
	if err != nil {
		return err
	}
	*v = json.Number(val)
	return nil
}))

// libNames matches keys to fields as encoding/json does: an exact match,
// else without regard to case ("NAME" is "name"), never ignoring "_" or "-".
var libNames = jsonv2.JoinOptions(jsonv2.MatchCaseInsensitiveNames(true), jsonv1.MatchCaseSensitiveDelimiter(true))

// libMarshal is v2 with encoding/json's output (Marshal's: no HTML escapes).
var libMarshal = jsonv2.JoinOptions(
	jsonv2.Deterministic(true),
	jsonv2.FormatNilSliceAsNull(true),
	jsonv2.FormatNilMapAsNull(true),
	jsontext.EscapeForJS(true), // invalid UTF-8 is refused: the caller falls back to encoding/json
	jsonv2.WithMarshalers(jsonv2.MarshalToFunc(func(enc *jsontext.Encoder, n json.Number) error {
		if n == "" {
			n = "0"
		}
		if len(n) == 0 || n[0] != '-' && (n[0] < '0' || n[0] > '9') {
			return fmt.Errorf("json: invalid number literal %q", string(n))
		}
		return enc.WriteValue(jsontext.Value(n))
	})),
)

// libRequest is a Request as v2 marshals it: the wire's shape without the
// MarshalJSON methods (which call encoding/json).
type libRequest struct {
	ID       string     `json:"id,omitempty"`
	Protocol string     `json:"protocol"`
	Context  libContext `json:"context"`
	Tool     *libCall   `json:"tool,omitempty"`
}

type libContext struct {
	Action         Action         `json:"action"`
	Root           string         `json:"root"`
	WorkspaceID    string         `json:"workspace_id"`
	ConversationID string         `json:"conversation_id"`
	Access         jsontext.Value `json:"access"`
}

type libCall struct {
	Name      string         `json:"name"`
	Arguments map[string]any `json:"arguments"`
	Answers   map[string]any `json:"answers"`
	Options   map[string]any `json:"options"`
}

// libMarshalRequest is MarshalRequest with the library.
func libMarshalRequest(r *Request) ([]byte, error) {
	lr := libRequest{ID: r.ID, Protocol: r.Protocol, Context: libContext{r.Context.Action, r.Context.Root,
		r.Context.WorkspaceID, r.Context.ConversationID, jsontext.Value(r.Context.Access)}}
	if len(strings.TrimSpace(string(lr.Context.Access))) == 0 {
		lr.Context.Access = jsontext.Value("null")
	}
	if c := r.Tool; c != nil {
		lr.Tool = &libCall{c.Name, orEmpty(c.Arguments), orEmpty(c.Answers), orEmpty(c.Options)}
	}
	return jsonv2.Marshal(&lr, libMarshal)
}

func orEmpty(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

// libDecodeRequest is decodeRequest with the library.
func libDecodeRequest(data []byte) (*Request, error) {
	var r Request
	if err := jsonv2.Unmarshal(data, &r, libNumber, libNames); err != nil {
		return nil, err
	}
	return &r, nil
}

// libDecodeSchema is DecodeSchemaResponse's decoding with the library.
func libDecodeSchema(data []byte) (*SchemaResponse, error) {
	var r SchemaResponse
	if err := jsonv2.Unmarshal(data, &r, libNames); err != nil {
		return nil, err
	}
	return checkSchemaResponse(&r)
}

// libOutcome is the v1 success and error shapes as v2 marshals them.
type libOutcome struct {
	Type      Kind     `json:"type"`
	Content   *string  `json:"content,omitzero"`
	Message   *string  `json:"message,omitzero"`
	Trace     []string `json:"trace,omitzero"`
	Transient *bool    `json:"transient,omitzero"`
}

// libMarshalOutcome is Outcome.MarshalJSON of a success or an error with
// the library.
func libMarshalOutcome(o Outcome) ([]byte, error) {
	lo := libOutcome{Type: o.Type}
	if o.Type == KindSuccess {
		lo.Content = &o.Content
	} else {
		lo.Message, lo.Transient, lo.Trace = &o.Message, &o.Transient, o.Trace
		if lo.Trace == nil {
			lo.Trace = []string{}
		}
	}
	return jsonv2.Marshal(&lo, libMarshal)
}

// libOutcomeFields is outcomeFields as v2 decodes it.
type libOutcomeFields struct {
	Type       *Kind          `json:"type"`
	Content    *string        `json:"content"`
	Structured jsontext.Value `json:"structured"`
	Blocks     []Block        `json:"blocks"`
	Message    string         `json:"message"`
	Trace      []string       `json:"trace"`
	Transient  bool           `json:"transient"`
	Question   *questionV2    `json:"question"`
	Questions  []questionV2   `json:"questions"`
}

// libTagged is a tagged line as v2 decodes it.
type libTagged struct {
	ID      *string        `json:"id"`
	Event   jsontext.Value `json:"event"`
	Outcome jsontext.Value `json:"outcome"`
}

// libDecodeTagged decodes a tagged line and its outcome's fields with the
// library, as decodeTaggedFields and decodeOutcomeFields do.
func libDecodeTagged(line []byte) (taggedFields, outcomeFields, error) {
	var t libTagged
	if err := jsonv2.Unmarshal(line, &t, libNames); err != nil {
		return taggedFields{}, outcomeFields{}, err
	}
	var o libOutcomeFields
	if err := jsonv2.Unmarshal(t.Outcome, &o, libNumber, libNames); err != nil {
		return taggedFields{}, outcomeFields{}, err
	}
	return taggedFields{t.ID, json.RawMessage(t.Event), json.RawMessage(t.Outcome)},
		outcomeFields{o.Type, o.Content, json.RawMessage(o.Structured), o.Blocks, o.Message, o.Trace, o.Transient, o.Question, o.Questions}, nil
}

// fastRequest is decodeRequest's one-pass path.
func fastRequest(data []byte) (*Request, bool) {
	r, err := libDecodeRequest(data)
	return r, err == nil
}

// fastSchema is DecodeSchemaResponse's one-pass path.
func fastSchema(data []byte) (*SchemaResponse, bool) {
	var r SchemaResponse
	if jsonv2.Unmarshal(data, &r, libNames) != nil || r.Tools == nil {
		return nil, false
	}
	return &r, true
}

// fastTagged is decodeTaggedFields's one-pass path.
func fastTagged(line []byte) (taggedFields, bool) {
	var t libTagged
	if jsonv2.Unmarshal(line, &t, libNames) != nil {
		return taggedFields{}, false
	}
	return taggedFields{t.ID, json.RawMessage(t.Event), json.RawMessage(t.Outcome)}, true
}

// fastOutcome is decodeOutcomeFields's one-pass path.
func fastOutcome(data []byte) (outcomeFields, bool) {
	var o libOutcomeFields
	if jsonv2.Unmarshal(data, &o, libNumber, libNames) != nil {
		return outcomeFields{}, false
	}
	return outcomeFields{o.Type, o.Content, json.RawMessage(o.Structured), o.Blocks, o.Message, o.Trace, o.Transient, o.Question, o.Questions}, true
}

// fastMarshalRequest is MarshalRequest's path without reflection.
func fastMarshalRequest(r *Request) ([]byte, bool) {
	b, err := libMarshalRequest(r)
	return b, err == nil
}

// outcomeJSON writes a success or an error outcome of v1's shape.
func outcomeJSON(o Outcome) ([]byte, error) {
	if b, err := libMarshalOutcome(o); err == nil {
		return b, nil
	}
	if o.Type == KindSuccess { // invalid UTF-8: encoding/json writes \ufffd
		return Marshal(successJSON{o.Type, o.Content})
	}
	trace := o.Trace
	if trace == nil {
		trace = []string{}
	}
	return Marshal(errorJSON{o.Type, o.Message, trace, o.Transient})
}
