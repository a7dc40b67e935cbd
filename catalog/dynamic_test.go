package catalog_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/tool"
)

func newEmpty(t *testing.T) *catalog.Catalog {
	t.Helper()
	c := catalog.New(nil)
	t.Cleanup(func() { c.Close() })
	return c
}

func echoHandler(ctx context.Context, args map[string]any) (tool.Outcome, error) {
	return tool.Success(catalog.FormatArgs("echo", args)), nil
}

var greetSchema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"name":  map[string]any{"type": "string", "description": "Who to greet."},
		"times": map[string]any{"type": "integer", "default": 1, "minimum": 1},
	},
	"required":             []any{"name"},
	"additionalProperties": false,
}

func TestRegisterErrors(t *testing.T) {
	tests := []struct {
		name string
		def  catalog.Definition
		want error
	}{
		{"empty name", catalog.Definition{Name: ""}, catalog.ErrInvalidName},
		{"space in name", catalog.Definition{Name: "a b"}, catalog.ErrInvalidName},
		{"dot in name", catalog.Definition{Name: "fs.read"}, catalog.ErrInvalidName},
		{"65 chars", catalog.Definition{Name: strings.Repeat("a", 65)}, catalog.ErrInvalidName},
		{"duplicate", catalog.Definition{Name: "taken"}, catalog.ErrDuplicate},
		{"string schema", catalog.Definition{Name: "s", InputSchema: map[string]any{"type": "string"}}, catalog.ErrNotObject},
		{"no type", catalog.Definition{Name: "s", InputSchema: map[string]any{"properties": map[string]any{}}}, catalog.ErrNotObject},
		{"properties not schemas", catalog.Definition{Name: "s", InputSchema: map[string]any{"type": "object", "properties": "x"}}, catalog.ErrNotObject},
		{"default breaks its schema", catalog.Definition{Name: "s", InputSchema: map[string]any{"type": "object",
			"properties": map[string]any{"n": map[string]any{"type": "integer", "minimum": 1, "default": 0}}}}, catalog.ErrNotObject},
		{"schema not JSON", catalog.Definition{Name: "s", InputSchema: map[string]any{"type": "object",
			"properties": map[string]any{"n": map[string]any{"default": func() {}}}}}, catalog.ErrNotObject},
		{"64 chars ok", catalog.Definition{Name: strings.Repeat("a", 64)}, nil},
		{"nil schema ok", catalog.Definition{Name: "a-b_C9"}, nil},
	}
	t.Run("annotations not JSON", func(t *testing.T) {
		c := newEmpty(t)
		err := c.Register(catalog.Definition{Name: "a", Annotations: map[string]any{"x": func() {}}}, echoHandler)
		want := `register "a": annotations are not JSON: json: unsupported type: func()`
		if err == nil || err.Error() != want {
			t.Fatalf("Register = %v, want %s", err, want)
		}
		if c.Has("a") {
			t.Error("the tool was registered")
		}
		_ = c.Identity() // must not panic
	})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newEmpty(t)
			if err := c.Register(catalog.Definition{Name: "taken"}, echoHandler); err != nil {
				t.Fatal(err)
			}
			err := c.Register(tt.def, echoHandler)
			if !errors.Is(err, tt.want) || (tt.want == nil) != (err == nil) {
				t.Fatalf("Register(%q) = %v, want %v", tt.def.Name, err, tt.want)
			}
		})
	}
}

func TestUnregister(t *testing.T) {
	c := newEmpty(t)
	if err := c.Unregister("nope"); !errors.Is(err, catalog.ErrUnknownTool) {
		t.Fatalf("Unregister(unknown) = %v, want ErrUnknownTool", err)
	}
	src := &fakeSource{name: "binaries", tools: []catalog.Tool{{Definition: catalog.Definition{Name: "fixed"}, Enabled: true, Source: "bin/x"}}}
	must(t, c.AddBase(t.Context(), src)) // a source's tool, as a configuration's binary would be
	if err := c.Unregister("fixed"); !errors.Is(err, catalog.ErrNotDynamic) {
		t.Fatalf("Unregister(binary tool) = %v, want ErrNotDynamic", err)
	}
	if err := c.Register(catalog.Definition{Name: "dyn"}, echoHandler); err != nil {
		t.Fatal(err)
	}
	if !c.Has("dyn") || c.Len() != 2 {
		t.Fatalf("after Register: Has=%v Len=%d", c.Has("dyn"), c.Len())
	}
	if err := c.Unregister("dyn"); err != nil {
		t.Fatal(err)
	}
	if c.Has("dyn") || c.Len() != 1 {
		t.Fatalf("after Unregister: Has=%v Len=%d", c.Has("dyn"), c.Len())
	}
}

func TestListSortedAndNames(t *testing.T) {
	c := newEmpty(t)
	for _, n := range []string{"zeta", "alpha", "mid"} {
		if err := c.Register(catalog.Definition{Name: n, Summary: "tool " + n}, echoHandler); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	for _, d := range c.List() {
		got = append(got, d.Name)
		if d.InputSchema["type"] != "object" {
			t.Errorf("%s: inputSchema %v, want an object schema", d.Name, d.InputSchema)
		}
	}
	want := []string{"alpha", "mid", "zeta"}
	if diff := diff(want, got); diff != "" {
		t.Errorf("List names mismatch (-want +got):\n%s", diff)
	}
	if diff := diff(want, c.Names()); diff != "" {
		t.Errorf("Names mismatch (-want +got):\n%s", diff)
	}
	tl, ok := c.Tool("mid")
	if !ok || !tl.Dynamic || tl.Source != "dynamic" || tl.Summary != "tool mid" {
		t.Errorf("Tool(mid) = %+v, %v", tl, ok)
	}
	// The returned copies do not alias the catalog's.
	tl.InputSchema["type"] = "string"
	if tl2, _ := c.Tool("mid"); tl2.InputSchema["type"] != "object" {
		t.Error("Tool returned a map shared with the catalog")
	}
}

func TestIdentity(t *testing.T) {
	a, b := newEmpty(t), newEmpty(t)
	if a.Identity() != b.Identity() {
		t.Fatalf("empty catalogs differ: %v %v", a.Identity(), b.Identity())
	}
	empty := a.Identity()
	if empty.ToolsCount != 0 || empty.ProtocolVersion != "1.0" || len(empty.ServerID) != 36 || empty.ServerID[14] != '5' {
		t.Fatalf("empty identity = %+v", empty)
	}
	// Same tools registered in another order: same id.
	must(t, a.Register(catalog.Definition{Name: "x", Summary: "X", InputSchema: greetSchema}, echoHandler))
	must(t, a.Register(catalog.Definition{Name: "y"}, echoHandler))
	must(t, b.Register(catalog.Definition{Name: "y"}, echoHandler))
	must(t, b.Register(catalog.Definition{Name: "x", Summary: "X", InputSchema: greetSchema}, echoHandler))
	if a.Identity() != b.Identity() {
		t.Fatalf("same tools, different ids: %v %v", a.Identity(), b.Identity())
	}
	if a.Identity().ToolsCount != 2 || a.Identity().ServerID == empty.ServerID {
		t.Fatalf("identity after registering = %+v", a.Identity())
	}
	// A different description changes the id.
	must(t, b.Unregister("y"))
	must(t, b.Register(catalog.Definition{Name: "y", Summary: "changed"}, echoHandler))
	if a.Identity() == b.Identity() {
		t.Fatal("different descriptions, same id")
	}
	// And removing the tool returns to the first id.
	must(t, a.Unregister("x"))
	must(t, a.Unregister("y"))
	if a.Identity() != empty {
		t.Fatalf("after unregistering all: %+v, want %+v", a.Identity(), empty)
	}
}

func TestSubscribe(t *testing.T) {
	c := newEmpty(t)
	var n atomic.Int32
	cancel := c.Subscribe(func() {
		n.Add(1)
		_ = c.Identity() // may call back into the catalog
	})
	must(t, c.Register(catalog.Definition{Name: "a"}, echoHandler))
	must(t, c.Unregister("a"))
	if err := c.Register(catalog.Definition{Name: ""}, echoHandler); !errors.Is(err, catalog.ErrInvalidName) { // a failed change notifies nobody
		t.Fatalf("Register(\"\") = %v, want ErrInvalidName", err)
	}
	if got := n.Load(); got != 2 {
		t.Fatalf("notified %d times, want 2", got)
	}
	cancel()
	cancel()
	must(t, c.Register(catalog.Definition{Name: "b"}, echoHandler))
	if got := n.Load(); got != 2 {
		t.Fatalf("notified after cancel: %d", got)
	}
}

func TestCallDynamic(t *testing.T) {
	c := newEmpty(t)
	must(t, c.Register(catalog.Definition{Name: "greet", InputSchema: greetSchema}, echoHandler))
	must(t, c.Register(catalog.Definition{Name: "boom"}, func(ctx context.Context, args map[string]any) (tool.Outcome, error) {
		panic("kaboom")
	}))
	tests := []struct {
		name string
		tool string
		args map[string]any
		want tool.Outcome
	}{
		{"defaults applied", "greet", map[string]any{"name": "Ada"}, tool.Success(`echo(name="Ada", times=1)`)},
		{"given value kept", "greet", map[string]any{"name": "Ada", "times": 3}, tool.Success(`echo(name="Ada", times=3)`)},
		{"missing required", "greet", nil,
			tool.Fail(`invalid arguments for tool "greet": missing required argument "name"`)},
		{"wrong type", "greet", map[string]any{"name": 7},
			tool.Fail(`invalid arguments for tool "greet": argument "name": want string, got integer 7`)},
		{"several fields", "greet", map[string]any{"times": 0, "colour": "red"},
			tool.Fail(`invalid arguments for tool "greet": missing required argument "name"; argument "times": want at least 1, got 0; unknown argument "colour" (the tool takes "name", "times")`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := c.Call(t.Context(), tt.tool, tt.args, nil)
			if err != nil {
				t.Fatal(err)
			}
			if diff := diff(tt.want, got); diff != "" {
				t.Errorf("outcome mismatch (-want +got):\n%s", diff)
			}
		})
	}
	if _, err := c.Call(t.Context(), "nope", nil, nil); !errors.Is(err, catalog.ErrUnknownTool) {
		t.Errorf("Call(unknown) = %v, want ErrUnknownTool", err)
	}
	_, err := c.Call(t.Context(), "boom", nil, nil)
	if want := `tool "boom": handler panicked: kaboom`; err == nil || err.Error() != want {
		t.Errorf("Call(panicking handler) = %v, want %s", err, want)
	}
	args := map[string]any{"name": "Ada"}
	if _, err := c.Call(t.Context(), "greet", args, nil); err != nil || len(args) != 1 {
		t.Errorf("Call modified the caller's arguments: %v", args)
	}
}

func TestFormatHost(t *testing.T) {
	c := newEmpty(t)
	must(t, c.Register(catalog.Definition{Name: "greet", InputSchema: greetSchema}, echoHandler))
	got, err := c.Format(t.Context(), "greet", map[string]any{"name": "Ada", "tags": []any{"a", 1}})
	if err != nil {
		t.Fatal(err)
	}
	if want := `greet(name="Ada", tags=["a",1])`; got != want {
		t.Errorf("Format = %s, want %s", got, want)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// diff returns "" when want and got are deeply equal, else both values.
func diff(want, got any) string {
	if reflect.DeepEqual(want, got) {
		return ""
	}
	return fmt.Sprintf("-%#v\n+%#v", want, got)
}

// TestIdentityOf: every field tools/list serves is in the id (it is the
// HTTP listings' ETag), and nothing else is; order does not matter.
func TestIdentityOf(t *testing.T) {
	base := catalog.Definition{Name: "x", Summary: "X", InputSchema: greetSchema, Annotations: map[string]any{"readOnlyHint": true}}
	id := catalog.IdentityOf([]catalog.Definition{base}).ServerID
	change := map[string]func(d *catalog.Definition){
		"name":           func(d *catalog.Definition) { d.Name = "z" },
		"description":    func(d *catalog.Definition) { d.Summary = "Y" },
		"schema":         func(d *catalog.Definition) { d.InputSchema = map[string]any{"type": "object"} },
		"annotation":     func(d *catalog.Definition) { d.Annotations = map[string]any{"readOnlyHint": false} },
		"no annotations": func(d *catalog.Definition) { d.Annotations = nil },
	}
	for what, f := range change {
		d := base
		f(&d)
		if got := catalog.IdentityOf([]catalog.Definition{d}).ServerID; got == id {
			t.Errorf("changing the %s kept server_id %s", what, id)
		}
	}
	other := catalog.Definition{Name: "a"}
	if catalog.IdentityOf([]catalog.Definition{base, other}) != catalog.IdentityOf([]catalog.Definition{other, base}) {
		t.Error("IdentityOf depends on the order of the definitions")
	}
	if got := catalog.IdentityOf([]catalog.Definition{base, other}).ToolsCount; got != 2 {
		t.Errorf("tools_count = %d, want 2", got)
	}
}

// TestRegisteredOutputChecked: a registered tool's structured answer is
// checked against its output schema, as every source's is; a structured
// value without text gets its JSON as content.
func TestRegisteredOutputChecked(t *testing.T) {
	c := newEmpty(t)
	def := catalog.Definition{Name: "count", Summary: "Count.", InputSchema: catalog.EmptyObject(),
		OutputSchema: map[string]any{"type": "object", "properties": map[string]any{"n": map[string]any{"type": "integer"}}, "required": []any{"n"}}}
	var answer any
	if err := c.Register(def, func(context.Context, map[string]any) (tool.Outcome, error) {
		return tool.Outcome{Type: tool.KindSuccess, Structured: answer}, nil
	}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		structured any
		want       tool.Outcome
	}{
		{map[string]any{"n": 3}, tool.Outcome{Type: tool.KindSuccess, Content: `{"n":3}`, Structured: map[string]any{"n": 3}}},
		{map[string]any{"n": "three"}, tool.Fail(`tool "count" returned structured output that does not match its output schema: at /n: want integer, got string "three"`)},
		{nil, tool.Fail(`tool "count" declares an output schema but its answer has no structured value`)},
	}
	for _, tt := range tests {
		answer = tt.structured
		out, err := c.Call(t.Context(), "count", nil, nil)
		if err != nil || !reflect.DeepEqual(out, tt.want) {
			t.Errorf("structured %v: Call = %+v, %v; want %+v", tt.structured, out, err, tt.want)
		}
	}
}

// TestOutputSchemaCycle: an output schema whose references lead back to a
// place with no step into the value is reported as one that does not
// compile, on the tool's first structured answer. Validating against it
// would overflow the stack.
func TestOutputSchemaCycle(t *testing.T) {
	c := newEmpty(t)
	def := catalog.Definition{Name: "loop", Summary: "Loop.", InputSchema: catalog.EmptyObject(),
		OutputSchema: map[string]any{"type": "object", "not": map[string]any{"$ref": "#"}}}
	if err := c.Register(def, func(context.Context, map[string]any) (tool.Outcome, error) {
		return tool.Outcome{Type: tool.KindSuccess, Structured: map[string]any{"n": 1}}, nil
	}); err != nil {
		t.Fatal(err)
	}
	out, err := c.Call(t.Context(), "loop", nil, nil)
	want := tool.Fail(`tool "loop" declares an output schema that does not compile: its references at the root lead back there without a step into the value`)
	if err != nil || !reflect.DeepEqual(out, want) {
		t.Errorf("Call = %+v, %v; want %+v", out, err, want)
	}
}
