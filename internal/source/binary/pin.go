package binary

import (
	"encoding/json"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/internal/pin"
)

// pinned returns the tools of e whose definitions are the accepted ones,
// and a problem for each other: it is held, not served. Only an entry
// with pin = true is checked; its first definitions are accepted as
// they are.
func (s *planner) pinned(e *config.Entry, tools []produced) ([]produced, []catalog.Problem) {
	if s.pins == nil || e.Pin == nil || !*e.Pin || len(tools) == 0 {
		return tools, nil
	}
	defs := make(map[string]json.RawMessage, len(tools))
	for _, pr := range tools {
		t := pr.e.t()
		data, err := json.Marshal(struct {
			catalog.Definition
			Description string `json:"longDescription,omitempty"`
			Examples    string `json:"examples,omitempty"`
		}{t.Definition, t.Description, t.Examples})
		if err != nil {
			data = []byte("null")
		}
		defs[t.Name] = data
	}
	id := e.Key() + " " + e.Command.String()
	changes, err := s.pins.Check(id, defs)
	if err != nil {
		return nil, []catalog.Problem{{Tool: e.Name, Place: e.Place.String(), Err: err,
			Fix: "the entry's tools are held until its record is read"}}
	}
	if len(changes) == 0 {
		return tools, nil
	}
	held := map[string]bool{}
	var problems []catalog.Problem
	for _, c := range changes {
		held[c.Tool] = true
		problems = append(problems, catalog.Problem{Tool: c.Tool, Place: e.Place.String(), Err: &pin.Held{Source: id, Change: c}, Fix: pin.HeldFix})
	}
	kept := tools[:0:0]
	for _, pr := range tools {
		if !held[pr.e.t().Name] {
			kept = append(kept, pr)
		}
	}
	return kept, problems
}
