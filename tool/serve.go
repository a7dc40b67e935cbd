package tool

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/toolhost/toolhost/internal/wirejson"
)

// Long-lived mode (see the package documentation, "Long-lived mode"). A v2
// binary that answers "schema" with "long_lived":true may be started once
// with [LongLivedEnv] set. It then reads requests, one JSON object a line,
// each with an "id". It answers with lines tagged by that id ([Tagged]).

// LongLivedEnv is the environment variable with which a host starts a
// binary in long-lived mode. It is set to "1". Its argv is the same as
// one-shot.
const LongLivedEnv = "TOOLHOST_LONG_LIVED"

// Tagged is one line a long-lived binary writes on stdout. It is an event
// or the outcome of the request with that id. Exactly one of Event and
// Outcome is set. The outcome is the request's last line.
type Tagged struct {
	ID      string   `json:"id"`
	Event   *Event   `json:"event,omitempty"`
	Outcome *Outcome `json:"outcome,omitempty"`
}

// Cancel is the line a host writes on a long-lived binary's stdin to cancel
// the request with that id: {"cancel":"7"}. The binary should end that call
// soon, its context cancelled. It should still answer it with an outcome.
// The host ignores that outcome. It kills the process group if none comes
// by the call's deadline plus the grace delay.
type Cancel struct {
	Cancel string `json:"cancel"`
}

// ErrNotTagged reports a line of a long-lived binary's stdout that is not
// a tagged event or outcome.
var ErrNotTagged = errors.New("not a tagged line")

// DecodeTagged decodes one line of a long-lived binary's stdout:
// {"id":"7","event":{…}} or {"id":"7","outcome":{…}}. The event and the
// outcome are as [DecodeEvent] and [DecodeOutcomeV2] read them. Errors
// wrap [ErrNotTagged] and the inner decoder's sentinel.
func DecodeTagged(line []byte) (Tagged, error) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 || line[0] != '{' {
		return Tagged{}, fmt.Errorf("%w: not a JSON object", ErrNotTagged)
	}
	raw, err := decodeTaggedFields(line)
	if err != nil {
		return Tagged{}, fmt.Errorf("%w: %v", ErrNotTagged, wirejson.Problem(err))
	}
	if raw.ID == nil || *raw.ID == "" {
		return Tagged{}, fmt.Errorf(`%w: no "id"`, ErrNotTagged)
	}
	t := Tagged{ID: *raw.ID}
	hasEvent := len(raw.Event) > 0 && string(raw.Event) != "null"
	hasOutcome := len(raw.Outcome) > 0 && string(raw.Outcome) != "null"
	switch {
	case hasEvent == hasOutcome:
		return Tagged{}, fmt.Errorf(`%w: id %q: want exactly one of "event" and "outcome"`, ErrNotTagged, t.ID)
	case hasEvent:
		e, err := DecodeEvent(raw.Event)
		if err != nil {
			return Tagged{}, fmt.Errorf("%w: id %q: %w", ErrNotTagged, t.ID, err)
		}
		t.Event = &e
	default:
		o, err := DecodeOutcomeV2(raw.Outcome)
		if err != nil {
			return Tagged{}, fmt.Errorf("%w: id %q: %w", ErrNotTagged, t.ID, err)
		}
		t.Outcome = &o
	}
	return t, nil
}

// taggedFields is a tagged line as encoding/json decodes it, before
// DecodeTagged checks it.
type taggedFields struct {
	ID             *string
	Event, Outcome json.RawMessage
}

// decodeTaggedFields decodes a tagged line with encoding/json, which
// words the errors.
func decodeTaggedFields(line []byte) (taggedFields, error) {
	var raw struct { // unnamed: its errors say "Go struct field .id"
		ID      *string         `json:"id"`
		Event   json.RawMessage `json:"event"`
		Outcome json.RawMessage `json:"outcome"`
	}
	err := decodeOne(line, &raw)
	return taggedFields(raw), err
}

// DecodeCancel reports whether a line of a long-lived binary's stdin is a
// cancel message. It returns the id it cancels. Any other line is a request.
func DecodeCancel(line []byte) (id string, ok bool) {
	line = bytes.TrimSpace(line)
	if !bytes.HasPrefix(line, []byte(`{`)) || !bytes.Contains(line, []byte(`"cancel"`)) {
		return "", false
	}
	var c struct {
		Cancel *string `json:"cancel"`
	}
	if json.Unmarshal(line, &c) != nil || c.Cancel == nil {
		return "", false
	}
	return *c.Cancel, true
}
