package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"github.com/toolhost/toolhost/catalog"
	"maps"
	"slices"
	"testing"

	"github.com/toolhost/toolhost/resolver"
	"github.com/toolhost/toolhost/tool"
)

// TestSyncFollowsCatalog: the SDK holds the catalog's tools from New on,
// and after each change exactly the catalog's tools. tools/list is the
// catalog's own bytes after the cache hints.
func TestSyncFollowsCatalog(t *testing.T) {
	cat, err := resolver.New(t.Context(), nil, &resolver.Options{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	ok := func(context.Context, map[string]any) (tool.Outcome, error) { return tool.Success("ran"), nil }
	for _, name := range []string{"a", "b", "c"} {
		if err := cat.Register(catalog.Definition{Name: name, Summary: "Tool " + name + "."}, ok); err != nil {
			t.Fatal(err)
		}
	}
	s := New(cat, nil)
	defer s.Close()
	held := func() []string {
		t.Helper()
		if _, err := s.sync(); err != nil {
			t.Fatal(err)
		}
		s.syncMu.Lock()
		defer s.syncMu.Unlock()
		return slices.Sorted(maps.Keys(s.registered))
	}
	if got := held(); !slices.Equal(got, []string{"a", "b", "c"}) {
		t.Fatalf("after New the SDK holds %q, want [a b c]", got)
	}

	if err := cat.Unregister("b"); err != nil {
		t.Fatal(err)
	}
	if err := cat.Register(catalog.Definition{Name: "d", Summary: "Tool d."}, ok); err != nil {
		t.Fatal(err)
	}
	if got := held(); !slices.Equal(got, []string{"a", "c", "d"}) {
		t.Fatalf("after the changes the SDK holds %q, want [a c d]", got)
	}

	raw, err := s.sync()
	if err != nil {
		t.Fatal(err)
	}
	listing, err := cat.ListJSON()
	if err != nil {
		t.Fatal(err)
	}
	want := `{"ttlMs":2000,"cacheScope":"public","tools":` + string(listing[len(`{"tools":`):])
	if got := string(raw.join()); got != want {
		t.Errorf("tools/list result\n%s\nwant\n%s", got, want)
	}
	if len(raw) != 3 {
		t.Errorf("tools/list kept in %d pieces, want 3: the hints, the catalog's bytes, the end", len(raw))
	}
}

// FuzzSplitListing: splitListing never panics, and for any listing it
// accepts, each definition is a JSON object found at its place in the
// listing, named as its Tool, with schemas that are JSON values inside it.
func FuzzSplitListing(f *testing.F) {
	f.Add([]byte(`{"tools":[]}`))
	f.Add([]byte(`{"tools":[{"name":"a","description":"A.","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true}},{"name":"b","inputSchema":{"type":"object","properties":{"x":{"type":"string"}}},"outputSchema":{"type":"object"},"title":"B","icons":[{"src":"x.png"}]}]}`))
	f.Add([]byte(`{"tools":[{"name":1,"annotations":{"readOnlyHint":"yes"},"icons":3,"other":[1,{"a":null}]}]}`))
	f.Add([]byte(` { "tools" : [ { "name" : "a" , "inputSchema" : { } } ] } `))
	f.Add([]byte(`{"tools":[{"name":"a"`))
	f.Add([]byte(`{"nope":[]}`))
	f.Fuzz(func(t *testing.T, listing []byte) {
		tools, err := splitListing(listing)
		if err != nil {
			return
		}
		for _, lt := range tools {
			if !json.Valid(lt.def) || lt.def[0] != '{' || !bytes.Equal(listing[lt.at:lt.at+len(lt.def)], lt.def) {
				t.Fatalf("definition %q is not an object at %d of %q", lt.def, lt.at, listing)
			}
			var named struct{ Name any }
			if err := json.Unmarshal(lt.def, &named); err != nil {
				t.Fatal(err)
			}
			if n, ok := named.Name.(string); ok && n != lt.tool.Name {
				t.Fatalf("definition %q names %q, its Tool %q", lt.def, n, lt.tool.Name)
			}
			for _, schema := range []any{lt.tool.InputSchema, lt.tool.OutputSchema} {
				raw, ok := schema.(json.RawMessage)
				if schema != nil && (!ok || !json.Valid(raw) || !bytes.Contains(lt.def, raw)) {
					t.Fatalf("schema %q of definition %q", raw, lt.def)
				}
			}
		}
	})
}
