package servers

import (
	"encoding/json"
	"errors"
	"strings"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/internal/pin"
)

// pinned returns what of defs, a listing's definitions by tool name, the
// person accepted (the first listing is accepted as the configuration was
// trusted), and a problem for each other tool: it is held, not served.
// When the record cannot be read, every tool is held.
func pinned(store *pin.Store, id, place string, defs map[string]json.RawMessage) (map[string]bool, []catalog.Problem) {
	served := make(map[string]bool, len(defs))
	for name := range defs {
		served[name] = true
	}
	if store == nil {
		return served, nil
	}
	changes, err := store.Check(id, defs)
	if err != nil {
		return nil, []catalog.Problem{{Place: place, Err: err, Fix: "every tool of the source is held until its record is read"}}
	}
	var problems []catalog.Problem
	for _, c := range changes {
		delete(served, c.Tool)
		problems = append(problems, catalog.Problem{Tool: c.Tool, Place: place, Err: &pin.Held{Source: id, Change: c}, Fix: pin.HeldFix})
	}
	return served, problems
}

// pinID is the identity a source's definitions are pinned under: its
// name and what reaches it. Another command or URL is another source.
func pinID(name, url string, argv []string) string {
	if url != "" {
		return name + " " + url
	}
	return name + " " + strings.Join(argv, " ")
}

// marshalDef is a definition's JSON for its record; a definition that
// cannot be encoded is recorded as null.
func marshalDef(v any) json.RawMessage {
	data, err := json.Marshal(v)
	if err != nil {
		return json.RawMessage("null")
	}
	return data
}

// IsHeld reports whether p is the problem of a tool held for a changed
// definition, and returns it.
func IsHeld(p catalog.Problem) (*pin.Held, bool) {
	var h *pin.Held
	ok := errors.As(p.Err, &h)
	return h, ok
}
