package binary

import (
	"bytes"
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"time"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/internal/invoke"
	"github.com/toolhost/toolhost/internal/source/binary/persist"
	"github.com/toolhost/toolhost/tool"
)

// This file is the stored form of a resolution (persist.go says when one
// is stored and used): the header's types, what a restored plan keeps of
// the configuration, and the problems kept with their sentinel errors.

// storePlan returns what restorePlan needs of p for tools.
func storePlan(p *plan, tools []persist.Tool) (*persist.Plan, error) {
	sp := &persist.Plan{}
	index := map[*group]int{}
	for i, g := range p.order {
		index[g] = i
		sp.Groups = append(sp.Groups, persist.Group{Command: g.spec.Command, Shell: g.spec.Shell, Dir: g.spec.Dir, Env: g.spec.Env,
			ClearEnv: g.spec.ClearEnv, Text: g.command, Timeout: g.timeout, Asked: g.asked})
	}
	seen := map[string]bool{}
	for _, st := range tools {
		ce := p.byKey[st.Entry]
		if ce == nil || seen[st.Entry] {
			continue
		}
		seen[st.Entry] = true
		se := persist.Entry{Key: st.Entry, Group: index[p.groupOf[ce]], AllowOption: ce.AllowOption}
		if ce.Options != nil {
			data, err := tool.Marshal(ce.Options)
			if err != nil {
				return nil, err
			}
			se.Options = data
		}
		policy, err := storePolicy(ce)
		if err != nil {
			return nil, err
		}
		se.Policy = policy
		sp.Entries = append(sp.Entries, se)
	}
	for _, c := range p.categories {
		sp.Categories = append(sp.Categories, persist.Category(c))
	}
	return sp, nil
}

// restorePlan rebuilds a plan from sp: entries hold only what a binding
// takes (AllowOption, Options).
func restorePlan(sp *persist.Plan) (*plan, bool) {
	p := &plan{restored: true, groups: map[string]*group{}, groupOf: map[*config.Entry]*group{}, byKey: map[string]*config.Entry{}}
	for _, sg := range sp.Groups {
		spec := &invoke.Spec{Command: sg.Command, Shell: sg.Shell, Dir: sg.Dir, Env: sg.Env, ClearEnv: sg.ClearEnv}
		g := &group{key: invocationKey(spec), spec: spec, command: sg.Text, timeout: sg.Timeout, asked: sg.Asked}
		if p.groups[g.key] != nil || len(sg.Command) == 0 {
			return nil, false
		}
		p.groups[g.key] = g
		p.order = append(p.order, g)
	}
	for _, se := range sp.Entries {
		if se.Group < 0 || se.Group >= len(p.order) || p.byKey[se.Key] != nil {
			return nil, false
		}
		ce := &config.Entry{AllowOption: se.AllowOption}
		if len(se.Options) > 0 {
			dec := json.NewDecoder(bytes.NewReader(se.Options))
			dec.UseNumber() // numbers keep their digits
			if err := dec.Decode(&ce.Options); err != nil {
				return nil, false
			}
		}
		if !restorePolicy(se.Policy, ce) {
			return nil, false
		}
		p.byKey[se.Key] = ce
		g := p.order[se.Group]
		p.groupOf[ce] = g
		if pol := policyOf(ce); !g.spec.Sandbox.Enforced() && pol.Enforced() {
			g.spec.Sandbox = pol // as newPlan does
		}
	}
	for _, c := range sp.Categories {
		p.categories = append(p.categories, catalog.Category(c))
	}
	return p, true
}

// storedDetail is a tool's detail in the body. Its definition is rebuilt
// from it (the input schema from the parameters, as merge builds it).
type storedDetail struct {
	Annotations      map[string]any             `json:"annotations,omitempty"`
	Description      string                     `json:"description,omitempty"`
	Examples         string                     `json:"examples,omitempty"`
	Parameters       map[string]*tool.Parameter `json:"parameters"`
	Category         string                     `json:"category,omitempty"`
	Tags             []string                   `json:"tags,omitempty"`
	RequiresApproval bool                       `json:"requires_approval,omitempty"`
	Run              catalog.RunMode            `json:"run,omitempty"`
	Answers          map[string]any             `json:"answers,omitempty"`
	Cancellation     string                     `json:"cancellation_response,omitempty"`
	Timeout          time.Duration              `json:"timeout,omitempty"`
	RateLimit        int                        `json:"rate_limit_per_minute,omitempty"`
	Source           string                     `json:"source"`
	Provenance       map[string]string          `json:"provenance"`

	// Protocol v2: served as given, not rebuilt from Parameters.
	Title        string         `json:"title,omitempty"`
	Icons        []catalog.Icon `json:"icons,omitempty"`
	OutputSchema map[string]any `json:"output_schema,omitempty"`
	RawInput     map[string]any `json:"input_schema,omitempty"` // a raw input schema (Parameters is nil then)
}

// storedProblem is a warning; errors are never stored.
type storedProblem struct {
	Tool  string     `json:"tool,omitempty"`
	Place string     `json:"place,omitempty"`
	Fix   string     `json:"fix,omitempty"`
	Msg   string     `json:"msg"`             // the cause's message (of Err.Err for an *Error)
	Kinds []string   `json:"kinds,omitempty"` // the sentinels it matches
	Error *storedErr `json:"error,omitempty"` // set when the cause is an *Error
}

type storedErr struct {
	Tool    string      `json:"tool"`
	Command string      `json:"command"`
	Action  tool.Action `json:"action"`
	Offered []string    `json:"offered,omitempty"`
	Fix     string      `json:"fix,omitempty"`
}

// sentinels are the errors a stored problem remembers matching, by name.
var sentinels = map[string]error{
	"unknown_tool": catalog.ErrUnknownTool, "invalid_name": catalog.ErrInvalidName, "duplicate": catalog.ErrDuplicate,
	"not_object": catalog.ErrNotObject, "not_found": catalog.ErrNotFound, "not_executable": catalog.ErrNotExecutable,
	"exit": ErrExit, "not_json": ErrNotJSON, "protocol": ErrProtocol, "not_schema": tool.ErrNotSchema,
	"timeout": catalog.ErrTimeout, "output_too_large": catalog.ErrOutputTooLarge, "tool_not_offered": ErrToolNotOffered,
}

// restoredError is a stored problem's cause: its message, matching the
// sentinels the original matched.
type restoredError struct {
	msg   string
	kinds []error
}

func (e *restoredError) Error() string   { return e.msg }
func (e *restoredError) Unwrap() []error { return e.kinds }

func storeProblem(p catalog.Problem) storedProblem {
	sp := storedProblem{Tool: p.Tool, Place: p.Place, Fix: p.Fix}
	cause := p.Err
	var e *catalog.Error
	if errors.As(p.Err, &e) && e == p.Err {
		sp.Error = &storedErr{Tool: e.Tool, Command: e.Source, Action: tool.Action(e.Op), Fix: e.Fix}
		cause = e.Err
	}
	if cause != nil {
		sp.Msg = cause.Error()
		for _, name := range slices.Sorted(maps.Keys(sentinels)) {
			if errors.Is(cause, sentinels[name]) {
				sp.Kinds = append(sp.Kinds, name)
			}
		}
	}
	return sp
}

func (sp storedProblem) restore() catalog.Problem {
	cause := &restoredError{msg: sp.Msg}
	for _, k := range sp.Kinds {
		if s, ok := sentinels[k]; ok {
			cause.kinds = append(cause.kinds, s)
		}
	}
	p := catalog.Problem{Tool: sp.Tool, Place: sp.Place, Warning: true, Fix: sp.Fix, Err: cause}
	if e := sp.Error; e != nil {
		p.Err = &catalog.Error{Op: string(e.Action), Tool: e.Tool, Source: e.Command, Fix: e.Fix, Err: cause}
	}
	return p
}

// rawInput is a tool's input schema when it is a raw one (protocol v2),
// which Parameters cannot rebuild, nil otherwise.
func rawInput(t *catalog.Tool) map[string]any {
	if t.Parameters == nil && t.InputSchema != nil && !t.Dynamic {
		return t.InputSchema
	}
	return nil
}
