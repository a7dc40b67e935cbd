package tool

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/toolhost/toolhost/internal/dupkey"
)

// Kind is the "type" of an [Outcome].
type Kind string

// The outcome kinds of protocol v1.
const (
	KindSuccess    Kind = "success"     // the call succeeded; Content holds its result
	KindError      Kind = "error"       // the tool ran and failed; Message says why
	KindNeedsInput Kind = "needs_input" // the tool needs an answer to Question before it can go on
)

// Outcome is what a binary answers to "run" and "format_arguments". It is a
// success with content, an error with a message, or a question it needs
// answered. A tool that ran and failed is an Outcome, not a Go error.
//
// Its JSON is byte-compatible with the JP assistant's outcome:
//
//	{"type":"success","content":"text"}
//	{"type":"error","message":"…","trace":[],"transient":false}
//	{"type":"needs_input","question":{…}}
type Outcome struct {
	Type      Kind
	Content   string    // KindSuccess
	Message   string    // KindError
	Trace     []string  // KindError: causes, outermost first
	Transient bool      // KindError: retrying the same call may succeed
	Question  *Question // KindNeedsInput

	// Protocol v2 (see DecodeOutcomeV2). Zero in v1 outcomes.
	Structured any        // KindSuccess: a value matching the tool's output schema
	Blocks     []Block    // KindSuccess: content blocks (text, image, resource_link)
	Questions  []Question // KindNeedsInput: several questions, answered together; Question is the first

	// MCP, when set, is the whole answer of a tool another MCP server
	// serves. It is its CallToolResult as JSON: content blocks,
	// structuredContent, isError, _meta. A face that speaks MCP sends it
	// unchanged. The fields above say the same for every other face. It is not
	// part of this protocol. No binary sends it, and no encoder writes it.
	MCP json.RawMessage
}

// Success returns a success outcome with the given content.
func Success(content string) Outcome { return Outcome{Type: KindSuccess, Content: content} }

// Fail returns an error outcome with a message and optional trace of causes.
func Fail(message string, trace ...string) Outcome {
	return Outcome{Type: KindError, Message: message, Trace: trace}
}

// Failf returns an error outcome with a formatted message.
func Failf(format string, args ...any) Outcome { return Fail(fmt.Sprintf(format, args...)) }

// Ask returns a needs_input outcome asking q.
func Ask(q Question) Outcome { return Outcome{Type: KindNeedsInput, Question: &q} }

// IsError reports whether o is an error outcome.
func (o Outcome) IsError() bool { return o.Type == KindError }

// String returns the outcome's text. That is the content, the error message
// with its trace, or the question.
func (o Outcome) String() string {
	switch o.Type {
	case KindSuccess:
		return o.Content
	case KindError:
		s := o.Message
		for _, t := range o.Trace {
			s += ": " + t
		}
		return s
	case KindNeedsInput:
		if o.Question != nil {
			return o.Question.Text
		}
	}
	return ""
}

type successJSON struct {
	Type    Kind   `json:"type"`
	Content string `json:"content"`
}

type errorJSON struct {
	Type      Kind     `json:"type"`
	Message   string   `json:"message"`
	Trace     []string `json:"trace"`
	Transient bool     `json:"transient"`
}

type needsInputJSON struct {
	Type     Kind      `json:"type"`
	Question *Question `json:"question"`
}

type successV2JSON struct {
	Type       Kind    `json:"type"`
	Content    string  `json:"content"`
	Structured any     `json:"structured,omitempty"`
	Blocks     []Block `json:"blocks,omitempty"`
}

type questionsJSON struct {
	Type      Kind       `json:"type"`
	Questions []Question `json:"questions"`
}

// MarshalJSON writes the fields of o's kind, and only those, in JP's order.
// It writes v2's fields only when set.
func (o Outcome) MarshalJSON() ([]byte, error) {
	switch o.Type {
	case KindSuccess:
		if o.Structured != nil || o.Blocks != nil {
			return Marshal(successV2JSON{o.Type, o.Content, o.Structured, o.Blocks})
		}
		return Marshal(successJSON{o.Type, o.Content})
	case KindError:
		trace := o.Trace
		if trace == nil {
			trace = []string{}
		}
		return Marshal(errorJSON{o.Type, o.Message, trace, o.Transient})
	case KindNeedsInput:
		if len(o.Questions) > 1 {
			return Marshal(questionsJSON{o.Type, o.Questions})
		}
		if o.Question == nil {
			return nil, errors.New("tool: needs_input outcome without a question")
		}
		return Marshal(needsInputJSON{o.Type, o.Question})
	}
	return nil, fmt.Errorf("tool: outcome of unknown type %q", o.Type)
}

// errNotOutcome reports that a document is not an outcome object. Hosts
// treat such stdout as plain content when the exit status is 0.
var errNotOutcome = errors.New("not an outcome")

// UnmarshalJSON decodes an outcome. It checks that its type is known and
// that a needs_input outcome carries a question with an id. Unknown fields
// are ignored. A missing trace decodes as nil.
func (o *Outcome) UnmarshalJSON(data []byte) error {
	var raw struct {
		Type      *Kind     `json:"type"`
		Content   *string   `json:"content"`
		Message   string    `json:"message"`
		Trace     []string  `json:"trace"`
		Transient bool      `json:"transient"`
		Question  *Question `json:"question"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	if raw.Type == nil {
		return fmt.Errorf(`%w: no "type" field`, errNotOutcome)
	}
	*o = Outcome{Type: *raw.Type}
	switch *raw.Type {
	case KindSuccess:
		if raw.Content == nil {
			return fmt.Errorf(`%w: success without "content"`, errNotOutcome)
		}
		o.Content = *raw.Content
	case KindError:
		o.Message, o.Trace, o.Transient = raw.Message, raw.Trace, raw.Transient
	case KindNeedsInput:
		if raw.Question == nil || raw.Question.ID == "" {
			return fmt.Errorf(`%w: needs_input without a question id`, errNotOutcome)
		}
		if raw.Question.AnswerType.Kind == "" {
			return fmt.Errorf(`%w: needs_input question %q without an answer_type`, errNotOutcome, raw.Question.ID)
		}
		o.Question = raw.Question
	default:
		return fmt.Errorf(`%w: unknown type %q (want "success", "error" or "needs_input")`, errNotOutcome, *raw.Type)
	}
	return nil
}

// DecodeOutcome decodes stdout holding one outcome. Whitespace around it is
// allowed. It returns an error wrapping errNotOutcome when data is not a
// JSON object with a known "type". Hosts then apply the plain-output rules.
func DecodeOutcome(data []byte) (Outcome, error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || data[0] != '{' {
		return Outcome{}, fmt.Errorf("%w: not a JSON object", errNotOutcome)
	}
	var o Outcome
	if err := decodeOne(data, &o); err != nil {
		var typeErr *json.UnmarshalTypeError
		switch {
		case errors.Is(err, errNotOutcome):
			return Outcome{}, err
		case errors.As(err, &typeErr):
			return Outcome{}, fmt.Errorf("%w: %s", errNotOutcome, describeTypeError("the outcome", typeErr))
		case errors.As(err, new(*dupkey.Error)):
			return Outcome{}, fmt.Errorf("%w: %w", errNotOutcome, err)
		}
		return Outcome{}, fmt.Errorf("%w: %v", errNotOutcome, err)
	}
	return o, nil
}

// Question is what a needs_input outcome asks. Its JSON is JP's:
//
//	{"id":"overwrite","text":"Overwrite a.txt?","pre_amble":null,"answer_type":"Boolean","default":false}
type Question struct {
	ID         string     `json:"id"`          // key of the answer in the next request's tool.answers
	Text       string     `json:"text"`        // the question, for a human
	PreAmble   *string    `json:"pre_amble"`   // optional text shown before the question
	AnswerType AnswerType `json:"answer_type"` // what kind of answer is expected
	Default    any        `json:"default"`     // the answer to use when nobody can be asked; nil for none
}

// Check reports whether answer is a valid answer to q. That is a bool for
// Boolean, a string for Text, and one of the options for Select.
func (q Question) Check(answer any) error {
	switch q.AnswerType.Kind {
	case AnswerBoolean:
		if _, ok := answer.(bool); !ok {
			return fmt.Errorf("question %q wants a boolean answer, got %s", q.ID, jsonText(answer))
		}
	case AnswerText:
		if _, ok := answer.(string); !ok {
			return fmt.Errorf("question %q wants a text answer, got %s", q.ID, jsonText(answer))
		}
	case AnswerSelect:
		if q.AnswerType.Multiple {
			return checkMultiple(q, answer)
		}
		s, ok := answer.(string)
		if !ok || !slices.Contains(q.AnswerType.Options, s) {
			return fmt.Errorf("question %q wants one of %q, got %s", q.ID, q.AnswerType.Options, jsonText(answer))
		}
	case AnswerSecret:
		if _, ok := answer.(string); !ok {
			return fmt.Errorf("question %q wants a secret text answer", q.ID) // never echoed
		}
	case AnswerNumber:
		return checkNumber(q, answer)
	default:
		return fmt.Errorf("question %q has unknown answer type %q", q.ID, q.AnswerType.Kind)
	}
	return nil
}

func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// AnswerKind is the kind of answer a [Question] expects.
type AnswerKind string

// The answer kinds, spelled as JP spells them.
const (
	AnswerBoolean AnswerKind = "Boolean"
	AnswerText    AnswerKind = "Text"
	AnswerSelect  AnswerKind = "Select"
)

// AnswerType is a question's "answer_type": "Boolean", "Text", or
// {"Select":{"options":[…]}}.
type AnswerType struct {
	Kind    AnswerKind
	Options []string // AnswerSelect only

	Minimum, Maximum *float64 // AnswerNumber only: bounds, nil for none
	Integer          bool     // AnswerNumber only: a whole number

	// Protocol v2, AnswerSelect only. Titles are labels shown for the
	// options, in their order. Multiple answers several options as a list.
	// LegacyTitles sends the labels in MCP's deprecated enumNames style
	// rather than oneOf/anyOf.
	Titles       []string
	Multiple     bool
	LegacyTitles bool
}

// Predefined answer types.
var (
	Boolean = AnswerType{Kind: AnswerBoolean}
	Text    = AnswerType{Kind: AnswerText}
)

// Select returns the answer type of a question answered by one of options.
func Select(options ...string) AnswerType { return AnswerType{Kind: AnswerSelect, Options: options} }

type selectJSON struct {
	Select struct {
		Options []string `json:"options"`
	} `json:"Select"`
}

// MarshalJSON writes JP's spelling of the answer type.
func (a AnswerType) MarshalJSON() ([]byte, error) {
	switch a.Kind {
	case AnswerBoolean, AnswerText, AnswerSecret:
		return Marshal(string(a.Kind))
	case AnswerNumber:
		var n numberJSON
		n.Number.Minimum, n.Number.Maximum, n.Number.Integer = a.Minimum, a.Maximum, a.Integer
		return Marshal(n)
	case AnswerSelect:
		if a.Titles != nil || a.Multiple || a.LegacyTitles {
			var s selectV2JSON
			s.Select.Options, s.Select.Titles, s.Select.Multiple, s.Select.LegacyTitles = a.Options, a.Titles, a.Multiple, a.LegacyTitles
			return Marshal(s)
		}
		var s selectJSON
		s.Select.Options = a.Options
		if s.Select.Options == nil {
			s.Select.Options = []string{}
		}
		return Marshal(s)
	}
	return nil, fmt.Errorf("tool: unknown answer type %q", a.Kind)
}

// UnmarshalJSON reads JP's spelling of the answer type.
func (a *AnswerType) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	if len(data) > 0 && data[0] == '"' {
		var s string
		if err := json.Unmarshal(data, &s); err != nil {
			return err
		}
		switch AnswerKind(s) {
		case AnswerBoolean, AnswerText:
			*a = AnswerType{Kind: AnswerKind(s)}
			return nil
		}
		return fmt.Errorf(`unknown answer_type %q (want "Boolean", "Text" or {"Select":{"options":[…]}})`, s)
	}
	var s selectJSON
	if err := json.Unmarshal(data, &s); err != nil || s.Select.Options == nil {
		return fmt.Errorf(`unknown answer_type %s (want "Boolean", "Text" or {"Select":{"options":[…]}})`, data)
	}
	*a = Select(s.Select.Options...)
	return nil
}
