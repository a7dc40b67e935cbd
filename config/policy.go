package config

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// The values of an entry's run field (the JP assistant's spelling).
const (
	RunAsk        = "ask"        // a person approves each call before it runs
	RunUnattended = "unattended" // calls run without asking (the default)
	RunSkip       = "skip"       // calls never run; the outcome says so
)

// RunMode returns how the entry's calls run: [RunAsk], [RunUnattended] or
// [RunSkip], from run, else from requires_approval (true is [RunAsk]),
// else [RunUnattended]. The two fields agree once the configuration is
// loaded (a conflict is a configuration error).
func (e *Entry) RunMode() string {
	switch {
	case e.Run != nil:
		return *e.Run
	case e.RequiresApproval != nil && *e.RequiresApproval:
		return RunAsk
	}
	return RunUnattended
}

// RunPlace returns where the entry's run mode was set ("file:line" of run
// or requires_approval), or "" when it is the default.
func (e *Entry) RunPlace() string {
	switch {
	case e.Run != nil:
		return e.Pos["run"].String()
	case e.RequiresApproval != nil:
		return e.Pos["requires_approval"].String()
	}
	return ""
}

// runValue decodes run: "ask", "unattended" or "skip".
func (d *decoder) runValue(path []string, v any) *string {
	s, ok := d.str(path, v)
	if !ok {
		return nil
	}
	switch s {
	case RunAsk, RunUnattended, RunSkip:
		return &s
	case "edit":
		d.fail(path, ErrInvalid, `%s: "edit" (edit the arguments before the call) is not supported; use "ask" to approve each call`, dotted(path))
	default:
		d.fail(path, ErrInvalid, `%s: %q is not a run mode; use "ask" (a person approves each call), "unattended" or "skip" (never run)`, dotted(path), s)
	}
	return nil
}

// questions decodes questions.ID.answer: a fixed answer to the tool's
// question ID, sent without asking anyone. Numbers become json.Number (as
// every number a tool receives); a date or time is refused (not JSON).
func (d *decoder) questions(path []string, v any, pos map[string]Position) map[string]any {
	t, ok := d.table(path, v)
	if !ok {
		return nil
	}
	out := map[string]any{}
	for _, id := range sortedKeys(t) {
		p := with(path, id)
		q, ok := d.table(p, t[id])
		if !ok {
			continue
		}
		for _, k := range sortedKeys(q) {
			if k != "answer" {
				d.unknown(with(p, k), []string{"answer"})
				continue
			}
			a, err := jsonValue(q[k])
			if err != nil {
				d.fail(with(p, k), ErrWrongType, "%s: want a boolean, string, number, array or table, got %s", dotted(with(p, k)), describe(q[k]))
				continue
			}
			out[id] = a
			pos["questions."+id] = d.pos(with(p, k))
		}
	}
	return out
}

// jsonValue converts a TOML value to what a tool receives as JSON:
// numbers as json.Number; a date or time is an error.
func jsonValue(v any) (any, error) {
	switch v := v.(type) {
	case bool, string:
		return v, nil
	case int64:
		return json.Number(strconv.FormatInt(v, 10)), nil
	case float64:
		b, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		return json.Number(b), nil
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			c, err := jsonValue(x)
			if err != nil {
				return nil, err
			}
			out[i] = c
		}
		return out, nil
	case []map[string]any:
		out := make([]any, len(v))
		for i, x := range v {
			c, err := jsonValue(x)
			if err != nil {
				return nil, err
			}
			out[i] = c
		}
		return out, nil
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			c, err := jsonValue(x)
			if err != nil {
				return nil, err
			}
			out[k] = c
		}
		return out, nil
	}
	return nil, fmt.Errorf("%T is not JSON", v)
}

// checkRun reports requires_approval and run set to disagreeing values
// (after every layer is merged): requires_approval = true means run =
// "ask", and false any other mode.
func (e *Entry) checkRun() *Error {
	if e.Run == nil || e.RequiresApproval == nil || *e.RequiresApproval == (*e.Run == RunAsk) {
		return nil
	}
	return newError(e.Pos["run"], e.Key(), ErrInvalid,
		"%s: requires_approval = %t (%s) and run = %q (%s) disagree; keep one (requires_approval = true is run = \"ask\")",
		e.Key(), *e.RequiresApproval, e.Pos["requires_approval"], *e.Run, e.Pos["run"])
}

// applyPolicy fills e's run mode and cancellation response from [defaults]
// when e sets neither run nor requires_approval (resp. no
// cancellation_response).
func (d *Defaults) applyPolicy(e *Entry) {
	if d.Run != nil && e.Run == nil && e.RequiresApproval == nil {
		r := *d.Run
		e.Run = &r
		e.Pos["run"] = d.Pos["run"]
	}
	if d.CancellationResponse != nil && e.CancellationResponse == nil {
		s := *d.CancellationResponse
		e.CancellationResponse = &s
		e.Pos["cancellation_response"] = d.Pos["cancellation_response"]
	}
}
