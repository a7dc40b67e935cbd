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
func (e *Entry) RunMode() string { return runMode(e.Run, e.RequiresApproval) }

// RunPlace returns where the entry's run mode was set ("file:line" of run
// or requires_approval), or "" when it is the default.
func (e *Entry) RunPlace() string { return runPlace(e.Run, e.RequiresApproval, e.Pos) }

// RunMode returns the run mode of the server's tools, as [Entry.RunMode]
// does. An entry serving them may set its own.
func (s *Server) RunMode() string { return runMode(s.Run, s.RequiresApproval) }

// RunMode returns the least strict run mode of the remote's tools, as
// [Entry.RunMode] does. A tool its provider marks requires_approval is
// stricter ([StricterRun]).
func (r *Remote) RunMode() string { return runMode(r.Run, r.RequiresApproval) }

// RunPlace returns where the remote's run mode was set, or "" when it is
// the default.
func (r *Remote) RunPlace() string { return runPlace(r.Run, r.RequiresApproval, r.Pos) }

func runMode(run *string, ra *bool) string {
	switch {
	case run != nil:
		return *run
	case ra != nil && *ra:
		return RunAsk
	}
	return RunUnattended
}

func runPlace(run *string, ra *bool, pos map[string]Position) string {
	switch {
	case run != nil:
		return pos["run"].String()
	case ra != nil:
		return pos["requires_approval"].String()
	}
	return ""
}

// runRank orders the run modes from the least strict: "unattended",
// "ask", "skip".
func runRank(mode string) int {
	switch mode {
	case RunSkip:
		return 2
	case RunAsk:
		return 1
	}
	return 0
}

// StricterRun returns the stricter of two run modes: "skip" over "ask"
// over "unattended". A provider's or server's own word can tighten the
// user's mode this way, never loosen it.
func StricterRun(a, b string) string {
	if runRank(b) > runRank(a) {
		return b
	}
	return a
}

// sandboxRank orders the sandbox modes from the least strict: false,
// unset, true, "require".
func sandboxRank(mode string) int {
	switch mode {
	case SandboxOff:
		return 0
	case "":
		return 1
	case SandboxOn:
		return 2
	}
	return 3
}

// mergeRun lays a later layer's run and requires_approval over an
// earlier one's, each where the later layer sets it.
func mergeRun(run **string, ra **bool, srcRun *string, srcRA *bool, set func(string) bool) {
	if set("run") {
		*run = srcRun
	}
	if set("requires_approval") {
		*ra = srcRA
	}
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
// every number a tool receives). A date or time is refused (not JSON).
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
// numbers as json.Number. A date or time is an error.
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
	return checkRun(e.Key(), e.Run, e.RequiresApproval, e.Pos)
}

func checkRun(key string, run *string, ra *bool, pos map[string]Position) *Error {
	if run == nil || ra == nil || *ra == (*run == RunAsk) {
		return nil
	}
	return newError(pos["run"], key, ErrInvalid,
		"%s: requires_approval = %t (%s) and run = %q (%s) disagree; keep one (requires_approval = true is run = \"ask\")",
		key, *ra, pos["requires_approval"], *run, pos["run"])
}

// applyRun fills a run mode (run, requires_approval and their
// positions) from run when it sets neither. From is where run was set.
func applyRun(run **string, ra **bool, pos map[string]Position, from *string, fromRA *bool, fromPos map[string]Position) {
	if *run != nil || *ra != nil {
		return
	}
	if from != nil {
		r := *from
		*run = &r
		pos["run"] = fromPos["run"]
	} else if fromRA != nil {
		b := *fromRA
		*ra = &b
		pos["requires_approval"] = fromPos["requires_approval"]
	}
}

// applyPolicy fills e's run mode and cancellation response from [defaults]
// when e sets neither run nor requires_approval (resp. no
// cancellation_response).
func (d *Defaults) applyPolicy(e *Entry) {
	applyRun(&e.Run, &e.RequiresApproval, e.Pos, d.Run, nil, d.Pos)
	if d.CancellationResponse != nil && e.CancellationResponse == nil {
		s := *d.CancellationResponse
		e.CancellationResponse = &s
		e.Pos["cancellation_response"] = d.Pos["cancellation_response"]
	}
}
