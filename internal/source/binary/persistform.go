package binary

import (
	"errors"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/internal/invoke"
	"github.com/toolhost/toolhost/internal/source/binary/persist"
)

// This file is the stored form of a resolution (store.go says when one
// is stored and used): the header's types, what a restored plan keeps of
// the configuration, and the problems kept with their sentinel errors.

// storePlan returns what restorePlan needs of p for tools.
func storePlan(p *plan, tools []persist.Tool) *persist.Plan {
	sp := &persist.Plan{}
	index := map[*group]int{}
	for i, g := range p.order {
		index[g] = i
		spec := invoke.Spec{Command: g.spec.Command, Shell: g.spec.Shell, Dir: g.spec.Dir, Env: g.spec.Env, ClearEnv: g.spec.ClearEnv}
		sp.Groups = append(sp.Groups, persist.Group{Spec: spec, Text: g.command, Timeout: g.timeout, Asked: g.asked})
	}
	seen := map[string]bool{}
	for _, st := range tools {
		ce := p.byKey[st.Entry]
		if ce == nil || seen[st.Entry] {
			continue
		}
		seen[st.Entry] = true
		sp.Entries = append(sp.Entries, persist.Entry{Key: st.Entry, Group: index[p.groupOf[ce]], Config: ce})
	}
	sp.Categories = p.categories
	return sp
}

// restorePlan rebuilds a plan from sp: entries hold only what a binding
// takes (AllowOption, Options).
func restorePlan(sp *persist.Plan) (*plan, bool) {
	p := &plan{restored: true, groups: make(map[string]*group, len(sp.Groups)), order: make([]*group, 0, len(sp.Groups)),
		groupOf: make(map[*config.Entry]*group, len(sp.Entries)), byKey: make(map[string]*config.Entry, len(sp.Entries))}
	for _, sg := range sp.Groups {
		spec := sg.Spec
		g := &group{key: invocationKey(&spec), spec: &spec, command: sg.Text, timeout: sg.Timeout, asked: sg.Asked}
		if p.groups[g.key] != nil || len(spec.Command) == 0 {
			return nil, false
		}
		p.groups[g.key] = g
		p.order = append(p.order, g)
	}
	for _, se := range sp.Entries {
		if se.Group < 0 || se.Group >= len(p.order) || p.byKey[se.Key] != nil || se.Config == nil {
			return nil, false
		}
		ce := se.Config
		p.byKey[se.Key] = ce
		g := p.order[se.Group]
		p.groupOf[ce] = g
		if pol := policyOf(ce); !g.spec.Sandbox.Enforced() && pol.Enforced() {
			g.spec.Sandbox = pol // as newPlan does
		}
	}
	p.categories = sp.Categories
	return p, true
}

// storedProblem is a warning as data: a [catalog.Problem], its cause as
// text, and the fields of its [*catalog.Error] when it is one. Errors are
// never stored. A cause keeps no error identity from the file, with one
// exception stored as data: NotOffered, a cause matching
// [ErrToolNotOffered]. Any other cause that wraps an error is not stored
// (storeProblem fails), so none loses its identity.
type storedProblem struct {
	Tool       string         `json:"tool,omitempty"`
	Place      string         `json:"place,omitempty"`
	Fix        string         `json:"fix,omitempty"`
	Msg        string         `json:"msg"`                   // the cause's message (of Err.Err for an *Error)
	NotOffered bool           `json:"not_offered,omitempty"` // the cause is ErrToolNotOffered
	Error      *catalog.Error `json:"error,omitempty"`       // set when the cause is an *Error; its Err is left out
}

// errNotStored is a warning whose cause wraps an error the stored form
// cannot give back: the resolution is not persisted.
var errNotStored = errors.New("a warning's cause cannot be stored")

func storeProblem(p catalog.Problem) (storedProblem, error) {
	sp := storedProblem{Tool: p.Tool, Place: p.Place, Fix: p.Fix}
	cause := p.Err
	var e *catalog.Error
	if errors.As(p.Err, &e) && e == p.Err {
		se := *e
		se.Err = nil
		sp.Error, cause = &se, e.Err
	}
	if cause == nil {
		return sp, nil
	}
	sp.Msg = cause.Error()
	switch {
	case errors.Is(cause, ErrToolNotOffered):
		sp.NotOffered = true
	case sp.Error != nil || wraps(cause):
		return sp, errNotStored // an Error's cause is a sentinel (its doc)
	}
	return sp, nil
}

// wraps reports whether err wraps another error.
func wraps(err error) bool {
	switch err.(type) {
	case interface{ Unwrap() error }, interface{ Unwrap() []error }:
		return true
	}
	return false
}

func (sp storedProblem) restore() catalog.Problem {
	var cause error = plainError(sp.Msg)
	if sp.NotOffered {
		cause = offeredError(sp.Msg)
	}
	p := catalog.Problem{Tool: sp.Tool, Place: sp.Place, Warning: true, Fix: sp.Fix, Err: cause}
	if e := sp.Error; e != nil {
		re := *e
		re.Err = cause
		p.Err = &re
	}
	return p
}

// plainError is a restored cause: its message alone.
type plainError string

func (e plainError) Error() string { return string(e) }

// offeredError is a restored cause that matched [ErrToolNotOffered].
type offeredError string

func (e offeredError) Error() string { return string(e) }
func (e offeredError) Unwrap() error { return ErrToolNotOffered }
