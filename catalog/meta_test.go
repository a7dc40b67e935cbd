package catalog_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/tool"
)

// TestRegisterMeta: a tool's _meta is served whole in the listing and
// counts in the identity; one that is not a JSON object is refused; a
// tool without one has no _meta key and keeps its identity.
func TestRegisterMeta(t *testing.T) {
	h := func(context.Context, map[string]any) (tool.Outcome, error) { return tool.Outcome{}, nil }
	tests := []struct {
		meta    string
		listing string
		err     string
	}{
		{"", `{"tools":[{"name":"w","description":"","inputSchema":{"properties":{},"type":"object"}}]}`, ""},
		{`{"ui":{"resourceUri":"ui://w/p.html"}}`,
			`{"tools":[{"name":"w","description":"","inputSchema":{"properties":{},"type":"object"},"_meta":{"ui":{"resourceUri":"ui://w/p.html"}}}]}`, ""},
		{`[1]`, "", `register "w": _meta is not a JSON object`},
		{`null`, "", `register "w": _meta is not a JSON object`},
	}
	var plain catalog.Identity
	for _, tt := range tests {
		c := newEmpty(t)
		def := catalog.Definition{Name: "w"}
		if tt.meta != "" {
			def.Meta = json.RawMessage(tt.meta)
		}
		err := c.Register(def, h)
		if got := errString(err); got != tt.err {
			t.Errorf("Register with _meta %s: error %q, want %q", tt.meta, got, tt.err)
			continue
		}
		if err != nil {
			continue
		}
		got, err := c.ListJSON()
		if err != nil || string(got) != tt.listing {
			t.Errorf("_meta %s: listing %s, %v\nwant %s", tt.meta, got, err, tt.listing)
		}
		switch id := c.Identity(); {
		case tt.meta == "":
			plain = id
			if want := catalog.IdentityOf([]catalog.Definition{{Name: "w", InputSchema: catalog.EmptyObject()}}); id != want {
				t.Errorf("identity without _meta %v, want %v (as before _meta was served)", id, want)
			}
		case id == plain:
			t.Errorf("_meta %s: the identity did not change", tt.meta)
		}
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
