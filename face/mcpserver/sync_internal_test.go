package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/resolver"
	"github.com/toolhost/toolhost/tool"
)

// TestSyncFollowsCatalog: until the catalog first changes, the SDK holds
// the tools with x-mcp-header annotations and each tool called, and no
// list_changed reaches the client for the tools it is given at their
// first call. tools/list is the catalog's own bytes after the cache
// hints. The first change gives the SDK exactly the catalog's tools, and
// is announced, even when it only takes away tools never called.
func TestSyncFollowsCatalog(t *testing.T) {
	ok := func(context.Context, map[string]any) (tool.Outcome, error) { return tool.Success("ran"), nil }
	def := func(name string) catalog.Definition {
		d := catalog.Definition{Name: name, Summary: "Tool " + name + "."}
		if strings.HasPrefix(name, "h") {
			d.InputSchema = map[string]any{"type": "object", "properties": map[string]any{
				"region": map[string]any{"type": "string", "x-mcp-header": "Region"}}}
		}
		return d
	}
	for _, tc := range []struct {
		name   string
		tools  []string // at New; a name starting with h has an x-mcp-header property
		call   []string // called before the change
		change func(*resolver.Catalog) error
		// the tools the SDK holds after New, after the calls, after the change
		start, called, after []string
	}{
		{"a tool added", []string{"a", "b", "h"}, []string{"a"},
			func(c *resolver.Catalog) error { return c.Register(def("d"), ok) },
			[]string{"h"}, []string{"a", "h"}, []string{"a", "b", "d", "h"}},
		{"a called tool removed", []string{"a", "b"}, []string{"a"},
			func(c *resolver.Catalog) error { return c.Unregister("a") },
			nil, []string{"a"}, []string{"b"}},
		{"only a tool never called removed", []string{"a", "b"}, []string{"a"},
			func(c *resolver.Catalog) error { return c.Unregister("b") },
			nil, []string{"a"}, []string{"a"}},
		{"the only tool removed, never called", []string{"b"}, nil,
			func(c *resolver.Catalog) error { return c.Unregister("b") },
			nil, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cat, err := resolver.New(t.Context(), nil, &resolver.Options{Root: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			for _, name := range tc.tools {
				if err := cat.Register(def(name), ok); err != nil {
					t.Fatal(err)
				}
			}
			s := New(cat, nil)
			defer s.Close()
			held := func(when string, want []string) {
				t.Helper()
				if _, err := s.sync(); err != nil {
					t.Fatal(err)
				}
				s.syncMu.Lock()
				got := slices.Sorted(maps.Keys(s.registered))
				s.syncMu.Unlock()
				if !slices.Equal(got, want) {
					t.Errorf("%s the SDK holds %q, want %q", when, got, want)
				}
			}
			held("after New", tc.start)

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

			changed := make(chan struct{}, 16)
			client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, &mcp.ClientOptions{
				ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} },
			})
			st, ct := mcp.NewInMemoryTransports()
			go s.Run(t.Context(), st)
			cs, err := client.Connect(t.Context(), ct, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			for _, name := range tc.call {
				res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: name, Arguments: map[string]any{}})
				if err != nil || res.IsError {
					t.Fatalf("calling %s: %v %+v", name, err, res)
				}
			}
			held("after the calls", tc.called)
			s.syncMu.Lock()
			for _, name := range tc.call {
				if def := s.registered[name]; !bytes.Contains(listing, def) {
					t.Errorf("the SDK was given %s as %s, not as listed", name, def)
				}
			}
			s.syncMu.Unlock()
			select {
			case <-changed:
				t.Errorf("list_changed after the calls, before any change")
			case <-time.After(200 * time.Millisecond): // the SDK sends it 10 ms after a change
			}

			if err := tc.change(cat); err != nil {
				t.Fatal(err)
			}
			select {
			case <-changed:
			case <-time.After(10 * time.Second): // a hang detector
				t.Errorf("no list_changed after the change")
			}
			held("after the change", tc.after)
		})
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

// listOnly is a [Catalog] with none of the optional methods: no ListJSON,
// Has or Tool.
type listOnly struct{ defs []catalog.Definition }

func (c listOnly) List() []catalog.Definition { return c.defs }

func (c listOnly) Call(_ context.Context, name string, _ map[string]any, _ *catalog.CallOptions) (tool.Outcome, error) {
	return tool.Success("ran " + name), nil
}

func (c listOnly) Identity() catalog.Identity { return catalog.Identity{ToolsCount: len(c.defs)} }

func (c listOnly) Subscribe(func()) func() { return func() {} }

// TestGiveOnCallListOnly: with a catalog that only lists its tools, the
// SDK holds none after New, is given a tool at its first call from the
// listing, and refuses a name the listing lacks.
func TestGiveOnCallListOnly(t *testing.T) {
	obj := map[string]any{"type": "object"}
	cat := listOnly{[]catalog.Definition{{Name: "a", Summary: "A.", InputSchema: obj}, {Name: "b", Summary: "B.", InputSchema: obj}}}
	s := New(cat, nil)
	defer s.Close()
	held := func() []string {
		s.syncMu.Lock()
		defer s.syncMu.Unlock()
		return slices.Sorted(maps.Keys(s.registered))
	}
	if got := held(); len(got) != 0 {
		t.Errorf("after New the SDK holds %q, want none", got)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil)
	st, ct := mcp.NewInMemoryTransports()
	go s.Run(t.Context(), st)
	cs, err := client.Connect(t.Context(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "b", Arguments: map[string]any{}})
	if err != nil || res.IsError || len(res.Content) != 1 || res.Content[0].(*mcp.TextContent).Text != "ran b" {
		t.Fatalf("calling b: %v %+v, want ran b", err, res)
	}
	if got := held(); !slices.Equal(got, []string{"b"}) {
		t.Errorf("after calling b the SDK holds %q, want [b]", got)
	}
	_, err = cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "c", Arguments: map[string]any{}})
	var werr *jsonrpc.Error
	if !errors.As(err, &werr) || werr.Code != jsonrpc.CodeInvalidParams || werr.Message != `unknown tool "c"` {
		t.Errorf("calling c: %v, want -32602 unknown tool", err)
	}
}
