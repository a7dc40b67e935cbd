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

type count struct {
	N int `json:"n" jsonschema:"minimum=5"`
}

type form struct {
	Name string `json:"name" jsonschema:"description=Name?"`
	Age  int    `json:"age" jsonschema:"minimum=0"`
}

var counter = sdk.New("counter", "Counts.", func(ctx context.Context, in struct {
	N int `json:"n"`
}) (count, error) {
	sdk.Progress(ctx, 1, 2, "half")
	f, err := sdk.AskForm[form](ctx, "")
	if err != nil {
		return count{}, err
	}
	sdk.Log(ctx, sdk.LevelInfo, f.Name)
	return count{N: in.N + f.Age}, nil
}, nil)

// TestV2 runs a tool that sends events, asks a form and returns structured
// output.
func TestV2(t *testing.T) {
	events, o := sdktest.RunEvents(t, counter, map[string]any{"n": 5}, nil)
	if len(events) != 1 || o.Type != tool.KindNeedsInput || len(o.Questions) != 2 {
		t.Fatalf("first run = %v, %+v", events, o)
	}
	events, o = sdktest.RunEvents(t, counter, map[string]any{"n": 5}, &sdktest.Options{Answers: map[string]any{"name": "Ada", "age": 36}})
	if len(events) != 2 || events[1].Message != "Ada" || sdktest.Structured[count](t, o).N != 41 {
		t.Errorf("answered = %v, %+v", events, o)
	}
	// A host of protocol v1 sees no events and asks one question at a time.
	events, o = sdktest.RunEvents(t, counter, map[string]any{"n": 5}, &sdktest.Options{Protocol: "1"})
	if len(events) != 0 || o.Question.ID != "name" || o.Questions != nil {
		t.Errorf("v1 = %v, %+v", events, o)
	}
}

// TestRunChecksStructured: a structured value the output schema refuses
// fails the test, as a host would refuse it.
func TestRunChecksStructured(t *testing.T) {
	f := &fakeT{TB: t}
	var wg sync.WaitGroup
	wg.Go(func() {
		sdktest.Run(f, counter, map[string]any{"n": 1}, &sdktest.Options{Answers: map[string]any{"name": "Ada", "age": 0}})
	})
	wg.Wait()
	if !strings.Contains(f.failed, `sdktest: tool "counter": structured value does not match the output schema`) || !strings.Contains(f.failed, "minimum") {
		t.Errorf("failure = %q", f.failed)
	}
}
