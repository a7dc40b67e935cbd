package sdktest_test

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/toolhost/toolhost/sdk"
	"github.com/toolhost/toolhost/sdk/sdktest"
	"github.com/toolhost/toolhost/tool"
)

type input struct {
	Name string `json:"name"`
	N    int    `json:"n,omitempty" jsonschema:"default=1"`
}

var echo = sdk.New("echo", "Echo.", func(ctx context.Context, in input) (string, error) {
	ok, err := sdk.Confirm(ctx, "go", "Go?", true)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s %d %v %s %v", in.Name, in.N, ok, sdk.Root(ctx), sdk.RequestFrom(ctx).Tool.Options["o"]), nil
}, nil)

func TestHelpers(t *testing.T) {
	resp := sdktest.Schema(t, echo)
	if got := resp.Names(); len(got) != 1 || got[0] != "echo" {
		t.Errorf("Schema names = %v", got)
	}
	o := sdktest.Run(t, echo, map[string]any{"name": "a"}, nil)
	if o.Type != tool.KindNeedsInput || o.Question.ID != "go" {
		t.Errorf("Run without answers = %+v", o)
	}
	o = sdktest.Run(t, echo, map[string]any{"name": "a", "n": 2}, &sdktest.Options{
		Root: "/ws", Answers: map[string]any{"go": false}, Options: map[string]any{"o": "x"},
	})
	if want := "a 2 false /ws x"; o.Content != want {
		t.Errorf("Run = %+v, want content %q", o, want)
	}
	o = sdktest.Run(t, echo, map[string]any{"name": 1}, nil)
	if want := `invalid arguments for tool "echo": name: want string, got number 1`; o.Message != want {
		t.Errorf("Run with a bad argument = %+v", o)
	}
	o = sdktest.Format(t, echo, map[string]any{"name": "a"}, nil)
	if want := "name: a\nn: 1"; o.Content != want {
		t.Errorf("Format = %+v, want %q", o, want)
	}
	stdout, code := sdktest.Do(t, &tool.Request{Context: tool.Context{Action: "nope"}}, echo)
	if code != sdk.ExitRequest || !strings.Contains(string(stdout), `unknown action \"nope\"`) {
		t.Errorf("Do = %s, %d", stdout, code)
	}
}

// fakeT records Fatalf instead of failing the real test.
type fakeT struct {
	testing.TB
	mu     sync.Mutex
	failed string
}

func (f *fakeT) Helper()             {}
func (f *fakeT) Logf(string, ...any) {}
func (f *fakeT) Fatalf(format string, args ...any) {
	f.mu.Lock()
	f.failed = fmt.Sprintf(format, args...)
	f.mu.Unlock()
	runtime.Goexit()
}

// TestSchemaFailsBrokenTool checks that Schema fails the test for a tool
// that cannot describe itself.
func TestSchemaFailsBrokenTool(t *testing.T) {
	f := &fakeT{TB: t}
	bad := sdk.New("bad name", "", func(context.Context, struct{}) (string, error) { return "", nil }, nil)
	var wg sync.WaitGroup
	wg.Go(func() { sdktest.Schema(f, bad) })
	wg.Wait()
	want := `sdktest: schema: exit status 1, stdout {"type":"error","message":"sdk: invalid tool name \"bad name\": a name must match ^[a-zA-Z0-9_-]{1,64}$","trace":[],"transient":false}` + "\n"
	if f.failed != want {
		t.Errorf("failure mismatch\nwant %q\ngot  %q", want, f.failed)
	}
}
