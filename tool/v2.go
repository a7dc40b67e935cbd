package tool

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/toolhost/toolhost/internal/wirejson"
	"math/big"
	"slices"
	"strings"

	"github.com/toolhost/toolhost/internal/dupkey"
)

// Protocol v2 (see the package documentation, "Protocol v2"). A binary opts
// in with "protocol":"2" in its schema answer. The host then sends it
// "protocol":"2" requests. Everything v1 says still holds. v2 adds event
// lines before the outcome, structured output, content blocks, raw input
// schemas, titles and icons. It adds several questions at once with two
// more answer types. The v1 decoders ([DecodeRequest], [DecodeOutcome]) are
// unchanged. The v2 shapes are read by [DecodeRequestV2], [DecodeStream],
// [DecodeOutcomeV2] and [DecodeEvent].

// Version2 is the protocol version a binary declares to use protocol v2.
const Version2 = "2"

// Icon is an image a host may show for a tool (MCP's tool icons).
type Icon struct {
	Src      string   `json:"src"`                 // a URL or a data: URI
	MimeType string   `json:"mime_type,omitempty"` // e.g. image/png
	Sizes    []string `json:"sizes,omitempty"`     // e.g. ["48x48"]
}

// BlockKind is the kind of a content [Block].
type BlockKind string

// Block kinds.
const (
	BlockText         BlockKind = "text"
	BlockImage        BlockKind = "image"
	BlockAudio        BlockKind = "audio"
	BlockResourceLink BlockKind = "resource_link"
	BlockResource     BlockKind = "resource"
)

// Block is one piece of a v2 success outcome's content. It is text, an
// image or a sound, or a link to a resource. It may be a resource embedded
// whole: its text, or its bytes in base64. Images and sounds hold base64
// data with its MIME type.
type Block struct {
	Type     BlockKind `json:"type"`
	Text     string    `json:"text,omitempty"`      // BlockText; BlockResource: a text resource
	Data     string    `json:"data,omitempty"`      // BlockImage, BlockAudio; BlockResource: a binary resource (base64)
	MimeType string    `json:"mime_type,omitempty"` // BlockImage, BlockAudio (required); BlockResourceLink, BlockResource (optional)
	URI      string    `json:"uri,omitempty"`       // BlockResourceLink, BlockResource
	Name     string    `json:"name,omitempty"`      // BlockResourceLink
}

// check reports what is wrong with b, or nil.
func (b Block) check() error {
	switch b.Type {
	case BlockText:
		return nil
	case BlockImage:
		if !strings.HasPrefix(b.MimeType, "image/") {
			return fmt.Errorf(`image block: mime_type %q is not an image type (want e.g. "image/png")`, b.MimeType)
		}
		if _, err := base64.StdEncoding.DecodeString(b.Data); err != nil || b.Data == "" {
			return errors.New("image block: data is not standard base64")
		}
	case BlockAudio:
		if !strings.HasPrefix(b.MimeType, "audio/") {
			return fmt.Errorf(`audio block: mime_type %q is not an audio type (want e.g. "audio/wav")`, b.MimeType)
		}
		if _, err := base64.StdEncoding.DecodeString(b.Data); err != nil || b.Data == "" {
			return errors.New("audio block: data is not standard base64")
		}
	case BlockResourceLink:
		if b.URI == "" || b.Name == "" {
			return errors.New(`resource_link block: "uri" and "name" are required`)
		}
	case BlockResource:
		if b.URI == "" {
			return errors.New(`resource block: "uri" is required`)
		}
		if (b.Text == "") == (b.Data == "") {
			return errors.New(`resource block: give either "text" or "data" (base64)`)
		}
		if _, err := base64.StdEncoding.DecodeString(b.Data); err != nil {
			return errors.New("resource block: data is not standard base64")
		}
	default:
		return fmt.Errorf(`unknown block type %q (want "text", "image", "audio", "resource_link" or "resource")`, b.Type)
	}
	return nil
}

// AnswerSecret and AnswerNumber are the answer types v2 adds. A secret is a
// text that is never logged or echoed (the JP assistant's Secret). A
// number may have bounds.
const (
	AnswerSecret AnswerKind = "Secret"
	AnswerNumber AnswerKind = "Number"
)

// Secret is the answer type of a question whose answer must never be
// logged or echoed.
var Secret = AnswerType{Kind: AnswerSecret}

// Number returns the answer type of a question answered with a number. The
// number is within [min, max] when they are not nil. It is whole when
// integer.
func Number(min, max *float64, integer bool) AnswerType {
	return AnswerType{Kind: AnswerNumber, Minimum: min, Maximum: max, Integer: integer}
}

type selectV2JSON struct {
	Select struct {
		Options      []string `json:"options"`
		Titles       []string `json:"titles,omitempty"`
		Multiple     bool     `json:"multiple,omitempty"`
		LegacyTitles bool     `json:"legacy_titles,omitempty"`
	} `json:"Select"`
}

// checkMultiple reports whether answer is a list of distinct options of a
// multiple Select.
func checkMultiple(q Question, answer any) error {
	bad := fmt.Errorf("question %q wants a list of distinct options of %q, got %s", q.ID, q.AnswerType.Options, jsonText(answer))
	var list []any
	switch x := answer.(type) {
	case []string:
		for _, s := range x {
			list = append(list, s)
		}
	case []any:
		list = x
	default:
		return bad
	}
	seen := map[string]bool{}
	for _, e := range list {
		s, ok := e.(string)
		if !ok || !slices.Contains(q.AnswerType.Options, s) || seen[s] {
			return bad
		}
		seen[s] = true
	}
	return nil
}

type numberJSON struct {
	Number struct {
		Minimum *float64 `json:"minimum,omitempty"`
		Maximum *float64 `json:"maximum,omitempty"`
		Integer bool     `json:"integer,omitempty"`
	} `json:"Number"`
}

// parseAnswerTypeV2 reads an answer type in v2's spelling: v1's, plus
// "Secret" and {"Number":{"minimum"?,"maximum"?,"integer"?}}.
func parseAnswerTypeV2(data []byte) (AnswerType, error) {
	data = bytes.TrimSpace(data)
	if string(data) == `"Secret"` {
		return Secret, nil
	}
	if bytes.HasPrefix(data, []byte(`{`)) && bytes.Contains(data, []byte(`"Number"`)) {
		var n numberJSON
		if err := json.Unmarshal(data, &n); err != nil {
			return AnswerType{}, fmt.Errorf("answer_type Number: %v", err)
		}
		if n.Number.Minimum != nil && n.Number.Maximum != nil && *n.Number.Minimum > *n.Number.Maximum {
			return AnswerType{}, errors.New("answer_type Number: minimum is greater than maximum")
		}
		return Number(n.Number.Minimum, n.Number.Maximum, n.Number.Integer), nil
	}
	if bytes.HasPrefix(data, []byte(`{`)) && bytes.Contains(data, []byte(`"Select"`)) {
		var s selectV2JSON
		if err := json.Unmarshal(data, &s); err == nil && s.Select.Options != nil {
			if s.Select.Titles != nil && len(s.Select.Titles) != len(s.Select.Options) {
				return AnswerType{}, fmt.Errorf("answer_type Select: %d titles for %d options", len(s.Select.Titles), len(s.Select.Options))
			}
			a := Select(s.Select.Options...)
			a.Titles, a.Multiple, a.LegacyTitles = s.Select.Titles, s.Select.Multiple, s.Select.LegacyTitles
			return a, nil
		}
	}
	var a AnswerType
	err := a.UnmarshalJSON(data)
	if err != nil {
		err = fmt.Errorf(`%v; v2 adds "Secret", {"Number":{"minimum":…,"maximum":…,"integer":…}} and {"Select":{"options":[…],"titles":[…],"multiple":true}}`, err)
	}
	return a, err
}

// checkNumber reports whether answer is a number q accepts.
func checkNumber(q Question, answer any) error {
	var r *big.Rat
	switch x := answer.(type) {
	case json.Number:
		r, _ = new(big.Rat).SetString(x.String())
	case float64:
		r = new(big.Rat)
		if r.SetFloat64(x) == nil {
			r = nil
		}
	case int:
		r = big.NewRat(int64(x), 1)
	case int64:
		r = big.NewRat(x, 1)
	}
	if r == nil {
		return fmt.Errorf("question %q wants a number, got %s", q.ID, jsonText(answer))
	}
	a := q.AnswerType
	if a.Integer && !r.IsInt() {
		return fmt.Errorf("question %q wants a whole number, got %s", q.ID, jsonText(answer))
	}
	if a.Minimum != nil && r.Cmp(new(big.Rat).SetFloat64(*a.Minimum)) < 0 {
		return fmt.Errorf("question %q wants at least %v, got %s", q.ID, *a.Minimum, jsonText(answer))
	}
	if a.Maximum != nil && r.Cmp(new(big.Rat).SetFloat64(*a.Maximum)) > 0 {
		return fmt.Errorf("question %q wants at most %v, got %s", q.ID, *a.Maximum, jsonText(answer))
	}
	return nil
}

// questionV2 is a question as v2 writes it. Its answer type may use the v2
// spellings.
type questionV2 struct {
	ID         string          `json:"id"`
	Text       string          `json:"text"`
	PreAmble   *string         `json:"pre_amble"`
	AnswerType json.RawMessage `json:"answer_type"`
	Default    any             `json:"default"`
}

func (q questionV2) question() (Question, error) {
	if q.ID == "" {
		return Question{}, errors.New("a question without an id")
	}
	if len(bytes.TrimSpace(q.AnswerType)) == 0 {
		return Question{}, fmt.Errorf("question %q without an answer_type", q.ID)
	}
	a, err := parseAnswerTypeV2(q.AnswerType)
	if err != nil {
		return Question{}, fmt.Errorf("question %q: %v", q.ID, err)
	}
	return Question{ID: q.ID, Text: q.Text, PreAmble: q.PreAmble, AnswerType: a, Default: q.Default}, nil
}

// DecodeOutcomeV2 decodes a v2 outcome. It reads v1's shapes. A success may
// add "structured" and "blocks", and its "content" is then optional. A
// needs_input may add "questions", several answered together. Numbers stay
// json.Number. Errors wrap errNotOutcome.
func DecodeOutcomeV2(data []byte) (Outcome, error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || data[0] != '{' {
		return Outcome{}, fmt.Errorf("%w: not a JSON object", errNotOutcome)
	}
	raw, err := decodeOutcomeFields(data)
	if err != nil {
		return Outcome{}, err
	}
	if raw.Type == nil {
		return Outcome{}, fmt.Errorf(`%w: no "type" field`, errNotOutcome)
	}
	o := Outcome{Type: *raw.Type}
	switch *raw.Type {
	case KindSuccess:
		hasStructured := len(raw.Structured) > 0 && string(raw.Structured) != "null"
		if raw.Content == nil && !hasStructured && raw.Blocks == nil {
			return Outcome{}, fmt.Errorf(`%w: success without "content", "structured" or "blocks"`, errNotOutcome)
		}
		if raw.Content != nil {
			o.Content = *raw.Content
		}
		if hasStructured {
			var v any
			d := json.NewDecoder(bytes.NewReader(raw.Structured))
			d.UseNumber()
			if err := d.Decode(&v); err != nil {
				return Outcome{}, fmt.Errorf("%w: structured: %v", errNotOutcome, err)
			}
			o.Structured = v
		}
		for i, b := range raw.Blocks {
			if err := b.check(); err != nil {
				return Outcome{}, fmt.Errorf("%w: block %d: %v", errNotOutcome, i, err)
			}
		}
		o.Blocks = raw.Blocks
	case KindError:
		o.Message, o.Trace, o.Transient = raw.Message, raw.Trace, raw.Transient
	case KindNeedsInput:
		qs := raw.Questions
		if raw.Question != nil {
			qs = append([]questionV2{*raw.Question}, qs...)
		}
		if len(qs) == 0 {
			return Outcome{}, fmt.Errorf(`%w: needs_input without "question" or "questions"`, errNotOutcome)
		}
		seen := map[string]bool{}
		for _, rq := range qs {
			q, err := rq.question()
			if err != nil {
				return Outcome{}, fmt.Errorf("%w: needs_input: %v", errNotOutcome, err)
			}
			if seen[q.ID] {
				return Outcome{}, fmt.Errorf("%w: needs_input: question %q asked twice", errNotOutcome, q.ID)
			}
			seen[q.ID] = true
			o.Questions = append(o.Questions, q)
		}
		o.Question = &o.Questions[0]
		if len(o.Questions) == 1 {
			o.Questions = nil
		}
	default:
		return Outcome{}, fmt.Errorf(`%w: unknown type %q (want "success", "error" or "needs_input")`, errNotOutcome, *raw.Type)
	}
	return o, nil
}

// AllQuestions returns the questions of a needs_input outcome. That is
// Questions when it asks several, else Question alone.
func (o Outcome) AllQuestions() []Question {
	if len(o.Questions) > 0 {
		return o.Questions
	}
	if o.Question != nil {
		return []Question{*o.Question}
	}
	return nil
}

// EventKind is the kind of an [Event].
type EventKind string

// Event kinds.
const (
	EventProgress EventKind = "progress"
	EventLog      EventKind = "log"
)

// Log levels an event may carry: MCP's (RFC 5424's), least severe first.
var LogLevels = []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// Event is a line a v2 binary prints on stdout before its outcome. It is
// the progress of the call, or a log message. Hosts forward events live as
// MCP progress and log notifications, or the CLI's progress line.
type Event struct {
	Type     EventKind `json:"type"`
	Progress float64   `json:"progress,omitempty"` // EventProgress: done so far; increases
	Total    *float64  `json:"total,omitempty"`    // EventProgress: the whole, when known
	Level    string    `json:"level,omitempty"`    // EventLog: one of LogLevels
	Message  string    `json:"message,omitempty"`
}

// errNotEvent reports a line that is not an event.
var errNotEvent = errors.New("not an event")

// DecodeEvent decodes one event line. Errors wrap errNotEvent.
func DecodeEvent(line []byte) (Event, error) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 || line[0] != '{' {
		return Event{}, fmt.Errorf("%w: not a JSON object", errNotEvent)
	}
	var e Event
	if err := decodeOne(line, &e); err != nil {
		if errors.As(err, new(*dupkey.Error)) {
			return Event{}, fmt.Errorf("%w: %w", errNotEvent, err)
		}
		return Event{}, fmt.Errorf("%w: %v", errNotEvent, wirejson.Problem(err))
	}
	switch e.Type {
	case EventProgress:
		if e.Progress < 0 || e.Total != nil && *e.Total < 0 {
			return Event{}, fmt.Errorf("%w: progress and total must not be negative", errNotEvent)
		}
	case EventLog:
		if e.Level == "" {
			e.Level = "info"
		}
		if !validLevel(e.Level) {
			return Event{}, fmt.Errorf("%w: unknown log level %q (want one of %s)", errNotEvent, e.Level, strings.Join(LogLevels, ", "))
		}
	default:
		return Event{}, fmt.Errorf(`%w: unknown type %q (want "progress" or "log")`, errNotEvent, e.Type)
	}
	return e, nil
}

func validLevel(l string) bool {
	for _, x := range LogLevels {
		if x == l {
			return true
		}
	}
	return false
}

// IsEventLine reports whether a line of a v2 binary's stdout is meant as
// an event. That is a JSON object whose "type" is "progress" or "log". A
// host reading stdout live forwards such lines. [DecodeStream] checks them.
func IsEventLine(line []byte) bool {
	line = bytes.TrimSpace(line)
	if len(line) == 0 || line[0] != '{' {
		return false
	}
	var head struct {
		Type EventKind `json:"type"`
	}
	if json.Unmarshal(line, &head) != nil {
		return false
	}
	return head.Type == EventProgress || head.Type == EventLog
}

// DecodeStream decodes what a v2 binary printed on stdout for run or
// format_arguments. That is zero or more event lines, then the outcome as
// the last non-blank line. A malformed event line or a missing outcome is
// an error naming the line. It wraps errNotEvent or errNotOutcome.
func DecodeStream(stdout []byte) ([]Event, Outcome, error) {
	lines := bytes.Split(stdout, []byte("\n"))
	last := -1
	for i := len(lines) - 1; i >= 0; i-- {
		if len(bytes.TrimSpace(lines[i])) > 0 {
			last = i
			break
		}
	}
	if last < 0 {
		return nil, Outcome{}, fmt.Errorf("%w: stdout is empty", errNotOutcome)
	}
	var events []Event
	for i, l := range lines[:last] {
		if len(bytes.TrimSpace(l)) == 0 {
			continue
		}
		e, err := DecodeEvent(l)
		if err != nil {
			return events, Outcome{}, fmt.Errorf("stdout line %d: %w", i+1, err)
		}
		events = append(events, e)
	}
	o, err := DecodeOutcomeV2(lines[last])
	if err != nil {
		return events, Outcome{}, fmt.Errorf("stdout line %d: %w", last+1, err)
	}
	return events, o, nil
}

// DecodeRequestV2 is [DecodeRequest] for a binary that speaks protocol v2.
// It accepts requests of version "1" or "2".
func DecodeRequestV2(data []byte) (*Request, error) {
	return decodeRequestOf(data, Version2)
}

// outcomeFields is an outcome object as encoding/json decodes it, before
// DecodeOutcomeV2 checks it.
type outcomeFields struct {
	Type       *Kind
	Content    *string
	Structured json.RawMessage
	Blocks     []Block
	Message    string
	Trace      []string
	Transient  bool
	Question   *questionV2
	Questions  []questionV2
}

// decodeOutcomeFields decodes an outcome object with encoding/json. That
// library words the errors. A success or an error of strings alone is
// read through a map first ([stringOutcome]). Anything else goes through
// the struct of [decodeOutcomeStruct].
func decodeOutcomeFields(data []byte) (outcomeFields, error) {
	if err := dupkey.Check(data); err != nil {
		return outcomeFields{}, fmt.Errorf("%w: %w", errNotOutcome, err)
	}
	if o, ok := stringOutcome(data); ok {
		return o, nil
	}
	return decodeOutcomeStruct(data)
}

// stringOutcome reads an outcome whose fields are JSON strings under
// "type", "content" and "message" alone: most successes and errors. It
// gives what [decodeOutcomeStruct] gives, false for anything else. A
// fresh process, as a one-shot call is, then builds no decoder for that
// struct and the types in it: about 50 µs. Past stringOutcomeMax bytes the
// map's extra pass over the data costs more than that.
func stringOutcome(data []byte) (outcomeFields, bool) {
	var m map[string]json.RawMessage
	if len(data) > stringOutcomeMax || json.Unmarshal(data, &m) != nil || len(m) == 0 {
		return outcomeFields{}, false
	}
	var o outcomeFields
	for k, v := range m {
		var s string
		if len(v) == 0 || v[0] != '"' || json.Unmarshal(v, &s) != nil {
			return outcomeFields{}, false
		}
		switch k {
		case "type":
			kind := Kind(s)
			o.Type = &kind
		case "content":
			o.Content = &s
		case "message":
			o.Message = s
		default:
			return outcomeFields{}, false
		}
	}
	return o, true
}

// stringOutcomeMax is the size of the largest outcome [stringOutcome] reads.
const stringOutcomeMax = 16 << 10

// decodeOutcomeStruct decodes an outcome object, checked for duplicate
// keys, into outcomeFields' fields.
func decodeOutcomeStruct(data []byte) (outcomeFields, error) {
	var raw struct { // unnamed: its errors say "Go struct field .type"
		Type       *Kind           `json:"type"`
		Content    *string         `json:"content"`
		Structured json.RawMessage `json:"structured"`
		Blocks     []Block         `json:"blocks"`
		Message    string          `json:"message"`
		Trace      []string        `json:"trace"`
		Transient  bool            `json:"transient"`
		Question   *questionV2     `json:"question"`
		Questions  []questionV2    `json:"questions"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&raw); err != nil {
		return outcomeFields{}, fmt.Errorf("%w: %v", errNotOutcome, wirejson.Problem(err))
	}
	if rest := bytes.TrimSpace(data[dec.InputOffset():]); len(rest) > 0 {
		return outcomeFields{}, fmt.Errorf("%w: unexpected data after the JSON value: %.40q", errNotOutcome, rest)
	}
	return outcomeFields(raw), nil
}
