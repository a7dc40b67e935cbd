package binary

import (
	"context"
	"errors"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/tool"
)

// A source must not keep a name the configuration gives a binary.
func TestAddSourceYieldsToEntry(t *testing.T) {
	t.Parallel()
	bin := filepath.Join(t.TempDir(), "tool")
	cfg := parse(t, `
[tools.v]
command = ["`+bin+`", "versioned"]
`)
	c, err := newCatalog(t.Context(), cfg, &Options{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	src := &fixedSource{name: "mcp.x", tools: []catalog.Tool{{Definition: catalog.Definition{Name: "v", Summary: "The server's v.", InputSchema: map[string]any{"type": "object"}}, Enabled: true}}}
	if err := c.AddSource(t.Context(), src); err != nil {
		t.Fatal(err)
	}
	if v, _ := c.Tool("v"); v.Summary != "The server's v." {
		t.Fatalf("before the build: tool v = %+v, want the source's", v)
	}
	copyExe(t, bin, nil)
	if changed, err := c.Refresh(t.Context()); !changed || err != nil {
		t.Fatalf("Refresh after the build = %v, %v; want true, nil", changed, err)
	}
	v, _ := c.Tool("v")
	if want := "Version " + sizeOf(t, bin) + "."; v.Summary != want {
		t.Errorf("after the build: tool v summary %q, want the binary's %q", v.Summary, want)
	}
	var dup []string
	for _, p := range c.Report().Problems {
		if errors.Is(p, catalog.ErrDuplicate) {
			dup = append(dup, p.Place+": "+p.Err.Error())
		}
	}
	want := `source mcp.x: duplicate tool name: left out: [tools.v] serves that name`
	if len(dup) != 1 || dup[0] != want {
		t.Errorf("duplicate problems %q, want [%q]", dup, want)
	}
	if out, err := c.Call(t.Context(), "v", nil, nil); err != nil || out.IsError() {
		t.Fatalf("Call(v) = %+v, %v", out, err)
	}
	if src.calls.Load() != 0 {
		t.Errorf("the source got %d calls of v, want none: the binary serves it", src.calls.Load())
	}
}

// fixedSource is a catalog.Source of fixed tools that counts its calls.
type fixedSource struct {
	name  string
	tools []catalog.Tool
	calls atomic.Int32
}

func (f *fixedSource) Name() string { return f.name }

func (f *fixedSource) Tools(context.Context) ([]*catalog.Tool, error) {
	out := make([]*catalog.Tool, len(f.tools))
	for i := range f.tools {
		t := f.tools[i]
		out[i] = &t
	}
	return out, nil
}

func (f *fixedSource) Call(context.Context, catalog.CallRequest) (catalog.CallResult, error) {
	f.calls.Add(1)
	return catalog.CallResult{Outcome: tool.Success("done")}, nil
}

func (f *fixedSource) Format(context.Context, string, map[string]any) (string, bool) {
	return "", false
}

func (f *fixedSource) Watch(func()) func()         { return func() {} }
func (f *fixedSource) Problems() []catalog.Problem { return nil }

func (f *fixedSource) Close() error { return nil }

// A registered tool keeps its name when a rebuilt binary produces it:
// Refresh reports no change of the served tools (nothing a client sees
// changed), and the report says the registered tool was kept.
func TestRefreshKeepsRegistered(t *testing.T) {
	t.Parallel()
	bin := filepath.Join(t.TempDir(), "tool")
	cfg := parse(t, `
[tools.v]
command = ["`+bin+`", "versioned"]
`)
	c, err := newCatalog(t.Context(), cfg, &Options{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Register(catalog.Definition{Name: "v", Summary: "Registered v."}, echoHandler); err != nil {
		t.Fatal(err)
	}
	id := c.Identity()
	copyExe(t, bin, nil)
	if changed, err := c.Refresh(t.Context()); changed || err != nil {
		t.Fatalf("Refresh after the build = %v, %v; want false, nil: the registered v is served still", changed, err)
	}
	if v, _ := c.Tool("v"); !v.Dynamic || v.Summary != "Registered v." {
		t.Errorf("tool v = %+v, want the registered one", v)
	}
	if c.Identity() != id {
		t.Error("the identity changed")
	}
	var dup []string
	for _, p := range c.Report().Problems {
		if errors.Is(p, catalog.ErrDuplicate) {
			dup = append(dup, p.Place+": "+p.Err.Error())
		}
	}
	want := `tools.v: duplicate tool name: "v" is registered dynamically and produced by ` + bin + ` versioned; the dynamic tool is kept`
	if len(dup) != 1 || dup[0] != want {
		t.Errorf("duplicate problems %q, want [%q]", dup, want)
	}
}
