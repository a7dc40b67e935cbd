package catalog_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/toolhost/toolhost/internal/jsonclone"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolhost/toolhost/audit"
	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/tool"
)

// fakeSource is a catalog.Source whose tools, answers and rendering the
// test sets, and which records what the catalog asks of it.
type fakeSource struct {
	name string

	mu       sync.Mutex
	tools    []catalog.Tool // listed as fresh copies
	listErr  error
	answer   func(catalog.CallRequest) (catalog.CallResult, error)
	render   string // Format's answer; "" for none
	calls    []catalog.CallRequest
	lists    int
	watchers map[int]func()
	nextW    int
	closes   int
	closeErr error
	gate     chan struct{} // if set, Tools waits until it is closed (a server still starting)
}

func (f *fakeSource) Name() string { return f.name }

func (f *fakeSource) Tools(context.Context) ([]*catalog.Tool, error) {
	if f.gate != nil {
		<-f.gate
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.lists++
	if f.listErr != nil {
		return nil, f.listErr
	}
	out := make([]*catalog.Tool, len(f.tools))
	for i := range f.tools {
		t := f.tools[i]
		t.InputSchema = jsonclone.Map(t.InputSchema)
		out[i] = &t
	}
	return out, nil
}

func (f *fakeSource) Problems() []catalog.Problem { return nil }

func (f *fakeSource) Call(_ context.Context, req catalog.CallRequest) (catalog.CallResult, error) {
	f.mu.Lock()
	f.calls = append(f.calls, req)
	answer := f.answer
	f.mu.Unlock()
	if answer == nil {
		return catalog.CallResult{Outcome: tool.Success("done")}, nil
	}
	return answer(req)
}

func (f *fakeSource) Format(_ context.Context, name string, args map[string]any) (string, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.render, f.render != ""
}

func (f *fakeSource) Watch(changed func()) func() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.watchers == nil {
		f.watchers = map[int]func(){}
	}
	id := f.nextW
	f.nextW++
	f.watchers[id] = changed
	return func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		delete(f.watchers, id)
	}
}

func (f *fakeSource) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.closes++
	return f.closeErr
}

// change sets the source's tools (or its listing error) and tells its
// watchers, as a server's tools/list_changed would.
func (f *fakeSource) change(tools []catalog.Tool, err error) {
	f.mu.Lock()
	f.tools, f.listErr = tools, err
	var ws []func()
	for _, w := range f.watchers {
		ws = append(ws, w)
	}
	f.mu.Unlock()
	for _, w := range ws {
		w()
	}
}

var searchTool = catalog.Tool{Definition: catalog.Definition{Name: "search", Summary: "Search the index.", InputSchema: map[string]any{
	"type": "object",
	"properties": map[string]any{
		"q":     map[string]any{"type": "string"},
		"limit": map[string]any{"type": "integer", "default": 10},
	},
	"required":             []any{"q"},
	"additionalProperties": false,
}}, Enabled: true}

// TestAddSourceCall: a source's tools are served, and a call of one goes
// through the catalog's one call path (validation with defaults,
// questions, approval) before the source runs each round.
func TestAddSourceCall(t *testing.T) {
	c := newEmpty(t)
	notified := 0
	c.Subscribe(func() { notified++ })
	asking := catalog.Tool{Definition: catalog.Definition{Name: "deploy", Summary: "Deploy."}, Enabled: true, Run: catalog.RunAsk}
	src := &fakeSource{name: "remote", tools: []catalog.Tool{searchTool, asking}}
	if err := c.AddSource(t.Context(), src); err != nil {
		t.Fatal(err)
	}
	if got, want := c.Names(), []string{"deploy", "search"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("Names() = %v, want %v", got, want)
	}
	if notified != 1 || c.Identity().ToolsCount != 2 || len(c.Report().Problems) != 0 {
		t.Fatalf("after AddSource: %d notifications, identity %+v, problems %v; want 1, 2 tools, none", notified, c.Identity(), c.Report().Problems)
	}
	if tl, _ := c.Tool("search"); tl.Source != "source remote" {
		t.Errorf("Source = %q, want %q", tl.Source, "source remote")
	}

	// Invalid arguments never reach the source.
	out, err := c.Call(t.Context(), "search", map[string]any{"limit": 3}, nil)
	if err != nil || out.Type != tool.KindError || out.Message != `invalid arguments for tool "search": missing required argument "q"` {
		t.Errorf("Call without q = %+v, %v; want the error outcome naming q", out, err)
	}
	if len(src.calls) != 0 {
		t.Fatalf("the source ran %d calls of invalid arguments", len(src.calls))
	}

	// A question goes back to the catalog, which asks it and calls again.
	src.answer = func(req catalog.CallRequest) (catalog.CallResult, error) {
		if req.Answers["scope"] == nil {
			return catalog.CallResult{Outcome: tool.Ask(tool.Question{ID: "scope", Text: "Where?", AnswerType: tool.Text})}, nil
		}
		return catalog.CallResult{Outcome: tool.Success("found in " + req.Answers["scope"].(string))}, nil
	}
	asked := 0
	out, err = c.Call(t.Context(), "search", map[string]any{"q": "x"}, &catalog.CallOptions{
		Ask: func(_ context.Context, q tool.Question) (any, error) { asked++; return "docs", nil },
	})
	if err != nil || out.Type != tool.KindSuccess || out.Content != "found in docs" || asked != 1 {
		t.Fatalf("Call with a question = %+v, %v after %d questions; want success \"found in docs\" after 1", out, err, asked)
	}
	want := []catalog.CallRequest{
		{Tool: "search", Args: map[string]any{"q": "x", "limit": json.Number("10")}, Answers: map[string]any{}},
		{Tool: "search", Args: map[string]any{"q": "x", "limit": json.Number("10")}, Answers: map[string]any{"scope": "docs"}},
	}
	if !reflect.DeepEqual(src.calls, want) {
		t.Errorf("the source got %+v, want %+v", src.calls, want)
	}

	// A tool that needs approval does not run without it, and the person
	// sees the source's own rendering.
	src.calls, src.answer = nil, nil
	if _, err := c.Call(t.Context(), "deploy", nil, nil); !errors.Is(err, catalog.ErrApprovalRequired) || len(src.calls) != 0 {
		t.Errorf("Call of deploy without Approve = %v with %d runs; want ErrApprovalRequired and none", err, len(src.calls))
	}
	src.render = "deploy everything"
	var seen catalog.Approval
	out, err = c.Call(t.Context(), "deploy", nil, &catalog.CallOptions{Approve: func(_ context.Context, a catalog.Approval) (bool, error) { seen = a; return true, nil }})
	if err != nil || out.Content != "done" || seen.Rendered != "deploy everything" || len(src.calls) != 1 {
		t.Errorf("approved Call = %+v, %v, rendered %q, %d runs; want done, %q, 1", out, err, seen.Rendered, len(src.calls), "deploy everything")
	}

	for _, tt := range []struct{ render, want string }{{"search for x", "search for x"}, {"", `search(limit=10, q="x")`}} {
		src.render = tt.render
		if got, err := c.Format(t.Context(), "search", map[string]any{"q": "x"}); err != nil || got != tt.want {
			t.Errorf("Format with the source rendering %q = %q, %v; want %q", tt.render, got, err, tt.want)
		}
	}
}

// TestAddSourceChanges: a change the source reports is listed again;
// subscribers hear of it and the identity follows, only when the tools
// differ. A listing that fails leaves the source's tools out, with a
// problem, until the next change.
func TestAddSourceChanges(t *testing.T) {
	c := newEmpty(t)
	notified := 0
	c.Subscribe(func() { notified++ })
	src := &fakeSource{name: "remote", tools: []catalog.Tool{searchTool}}
	if err := c.AddSource(t.Context(), src); err != nil {
		t.Fatal(err)
	}
	first := c.Identity()
	other := searchTool
	other.Name, other.Summary = "find", "Find a file."
	steps := []struct {
		name     string
		tools    []catalog.Tool
		err      error
		names    []string
		notified int
		problems []string
	}{
		{"same tools", []catalog.Tool{searchTool}, nil, []string{"search"}, 1, nil},
		{"one more", []catalog.Tool{searchTool, other}, nil, []string{"find", "search"}, 2, nil},
		{"listing fails", nil, errors.New("connection refused"), nil, 3,
			[]string{`source remote: listing its tools: connection refused`}},
		{"listed again", []catalog.Tool{searchTool}, nil, []string{"search"}, 4, nil},
	}
	for _, s := range steps {
		src.change(s.tools, s.err)
		var problems []string
		for _, p := range c.Report().Problems {
			problems = append(problems, p.Error())
		}
		if got := c.Names(); !slices.Equal(got, s.names) || notified != s.notified || !slices.Equal(problems, s.problems) {
			t.Errorf("%s: names %v, %d notifications, problems %q; want %v, %d, %q", s.name, got, notified, problems, s.names, s.notified, s.problems)
		}
	}
	if got := c.Identity(); got != first {
		t.Errorf("identity after the same tools came back = %+v, want %+v", got, first)
	}
}

// TestAddSourceProblems: a tool that cannot be served is left out with a
// problem naming it; the source's other tools are served.
func TestAddSourceProblems(t *testing.T) {
	c := newEmpty(t)
	if err := c.Register(catalog.Definition{Name: "taken"}, echoHandler); err != nil {
		t.Fatal(err)
	}
	bad := func(name string, schema map[string]any) catalog.Tool {
		return catalog.Tool{Definition: catalog.Definition{Name: name, InputSchema: schema}, Enabled: true}
	}
	src := &fakeSource{name: "remote", tools: []catalog.Tool{
		searchTool, bad("taken", nil), bad("a b", nil), bad("twice", nil), bad("twice", nil), bad("str", map[string]any{"type": "string"}),
	}}
	if err := c.AddSource(t.Context(), src); err != nil {
		t.Fatal(err)
	}
	if got, want := c.Names(), []string{"search", "taken", "twice"}; !slices.Equal(got, want) {
		t.Errorf("Names() = %v, want %v", got, want)
	}
	want := []struct {
		tool string
		err  error
	}{{"a b", catalog.ErrInvalidName}, {"twice", catalog.ErrDuplicate}, {"str", catalog.ErrNotObject}, {"taken", catalog.ErrDuplicate}}
	got := c.Report().Problems
	if len(got) != len(want) {
		t.Fatalf("problems %v, want %d", got, len(want))
	}
	for i, w := range want {
		if got[i].Tool != w.tool || !errors.Is(got[i], w.err) || got[i].Place != "source remote" || got[i].Warning {
			t.Errorf("problem %d = %+v (%v), want tool %q wrapping %v", i, got[i], got[i], w.tool, w.err)
		}
	}
	if tl, _ := c.Tool("taken"); !tl.Dynamic {
		t.Errorf("tool taken = %+v, want the registered one kept", tl)
	}
	err := c.AddSource(t.Context(), &fakeSource{name: "remote"})
	if !errors.Is(err, catalog.ErrDuplicate) || err.Error() != `add source "remote": duplicate tool name (a source of that name is served)` {
		t.Errorf("second source named remote: %v, want ErrDuplicate", err)
	}
}

// TestAddSourceClose: Close ends the source's watch and closes it once,
// returning its error; nothing is added after.
func TestAddSourceClose(t *testing.T) {
	c := newEmpty(t)
	src := &fakeSource{name: "remote", tools: []catalog.Tool{searchTool}, closeErr: errors.New("broken pipe")}
	if err := c.AddSource(t.Context(), src); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err == nil || err.Error() != `closing source "remote": broken pipe` {
		t.Errorf("Close() = %v, want the source's error", err)
	}
	if err := c.Close(); err != nil {
		t.Errorf("second Close() = %v, want nil", err)
	}
	if src.closes != 1 || len(src.watchers) != 0 {
		t.Errorf("the source was closed %d times with %d watchers left; want 1 and 0", src.closes, len(src.watchers))
	}
	lists := src.lists
	src.change([]catalog.Tool{searchTool}, nil)
	if src.lists != lists {
		t.Errorf("a change after Close listed the source again")
	}
	err := c.AddSource(t.Context(), &fakeSource{name: "late"})
	if err == nil || err.Error() != `add source "late": the catalog is closed` {
		t.Errorf("AddSource after Close = %v, want the catalog is closed", err)
	}
}

// TestAddSourceFormOneRound: the questions of one round of a source's tool
// (an MCP server's elicitation form, here of 12 fields) count as one
// against MaxRounds, asked as a form or one by one; a source that keeps
// asking still ends at MaxRounds rounds.
func TestAddSourceFormOneRound(t *testing.T) {
	var fields []tool.Question
	for i := range 12 {
		fields = append(fields, tool.Question{ID: fmt.Sprintf("f%02d", i), Text: fmt.Sprintf("Field %d?", i), AnswerType: tool.Text})
	}
	answerAll := func(req catalog.CallRequest) (catalog.CallResult, error) {
		for _, q := range fields {
			if req.Answers[q.ID] == nil {
				return catalog.CallResult{Outcome: askAll(fields)}, nil
			}
		}
		return catalog.CallResult{Outcome: tool.Success(fmt.Sprintf("%d answers", len(req.Answers)))}, nil
	}
	rounds := 0
	askForever := func(req catalog.CallRequest) (catalog.CallResult, error) {
		rounds++
		qs := make([]tool.Question, len(fields))
		for i, q := range fields {
			q.ID = fmt.Sprintf("%s.%d", q.ID, rounds)
			qs[i] = q
		}
		return catalog.CallResult{Outcome: askAll(qs)}, nil
	}
	ask := func(context.Context, tool.Question) (any, error) { return "x", nil }
	askForm := func(_ context.Context, qs []tool.Question) (map[string]any, error) {
		out := map[string]any{}
		for _, q := range qs {
			out[q.ID] = "x"
		}
		return out, nil
	}
	for _, tt := range []struct {
		name   string
		answer func(catalog.CallRequest) (catalog.CallResult, error)
		opts   catalog.CallOptions
		want   tool.Outcome
		rounds int
	}{
		{"form", answerAll, catalog.CallOptions{AskForm: askForm}, tool.Success("12 answers"), 0},
		{"one by one", answerAll, catalog.CallOptions{Ask: ask}, tool.Success("12 answers"), 0},
		{"asks forever, form", askForever, catalog.CallOptions{AskForm: askForm, MaxRounds: 3},
			tool.Fail(`tool "form" asked more than 3 questions in one call; giving up`), 4},
		{"asks forever, one by one", askForever, catalog.CallOptions{Ask: ask, MaxRounds: 3},
			tool.Fail(`tool "form" asked more than 3 questions in one call (the last: "Field 0?"); giving up`), 4},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := newEmpty(t)
			src := &fakeSource{name: "mcp.everything", tools: []catalog.Tool{{Definition: catalog.Definition{Name: "form", Summary: "A form."}, Enabled: true}}, answer: tt.answer}
			if err := c.AddSource(t.Context(), src); err != nil {
				t.Fatal(err)
			}
			rounds = 0
			got, err := c.Call(t.Context(), "form", nil, &tt.opts)
			if err != nil || !reflect.DeepEqual(got, tt.want) || rounds != tt.rounds {
				t.Errorf("Call = %+v, %v after %d rounds; want %+v after %d", got, err, rounds, tt.want, tt.rounds)
			}
		})
	}
}

// askAll is the needs_input outcome of several questions asked together,
// as internal/source/servers makes of a server's elicitation form.
func askAll(qs []tool.Question) tool.Outcome {
	return tool.Outcome{Type: tool.KindNeedsInput, Question: &qs[0], Questions: qs}
}

// TestAddSourceYieldsToEntry: a source that lists a tool under the name of
// a configured entry whose binary is down (not built yet) serves it only
// until the binary answers: then the entry's tool is served, as when the
// catalog is made, and the source's is left out with a problem saying so.

// TestSourceCollisions: where sources list the same names, the source
// added first keeps them, whichever lists first; each other source has
// one problem for all the names it lost, whose fix is the prefix to add,
// and gets a name back once the source holding it stops listing it.
func TestSourceCollisions(t *testing.T) {
	server := func(name string, tools ...string) *fakeSource {
		f := &fakeSource{name: "mcp." + name}
		for _, n := range tools {
			f.tools = append(f.tools, catalog.Tool{Definition: catalog.Definition{Name: n, Summary: name + " " + n}, Enabled: true,
				Provenance: map[string]string{"entry": "mcp_servers." + name}})
		}
		return f
	}
	c := newEmpty(t)
	ev1 := server("ev1", "add", "echo", "env", "sleep")
	ev1.gate = make(chan struct{})
	ev4 := server("ev4", "add", "echo", "env", "sleep")
	fs := server("fs", "read_file", "echo")
	go func() {
		for c.Len() < 4 { // ev4 lists first
			time.Sleep(time.Millisecond)
		}
		close(ev1.gate)
	}()
	if errs := c.AddSources(t.Context(), []catalog.Source{ev1, ev4, fs}); errors.Join(errs...) != nil {
		t.Fatal(errs)
	}
	problems := func() []string {
		var out []string
		for _, p := range c.Report().Problems {
			if !errors.Is(p, catalog.ErrDuplicate) {
				t.Errorf("problem %v does not wrap ErrDuplicate", p)
			}
			out = append(out, p.Error()+" (fix: "+p.Fix+")")
		}
		return out
	}
	want := []string{
		`source mcp.ev4: duplicate tool name: 4 of its tools ("add", "echo", "env", …) are left out: source "mcp.ev1" (declared first) serves those names (fix: add prefix = "ev4_" to [mcp_servers.ev4], to serve its tools as ev4_add…, or leave the shared ones out with exclude)`,
		`source mcp.fs: tool "echo": duplicate tool name: left out: source "mcp.ev1" (declared first) serves that name (fix: add prefix = "fs_" to [mcp_servers.fs], to serve its tools as fs_echo…, or leave the shared ones out with exclude)`,
	}
	if got := problems(); !slices.Equal(got, want) {
		t.Errorf("problems mismatch\n got: %q\nwant: %q", got, want)
	}
	if echo, _ := c.Tool("echo"); echo.Summary != "ev1 echo" {
		t.Errorf("echo is %q, want ev1's", echo.Summary)
	}
	ev1.change(ev1.tools[:1], nil) // ev1 now lists only add: ev4 serves the rest
	want = []string{
		`source mcp.ev4: tool "add": duplicate tool name: left out: source "mcp.ev1" (declared first) serves that name (fix: add prefix = "ev4_" to [mcp_servers.ev4], to serve its tools as ev4_add…, or leave the shared ones out with exclude)`,
		`source mcp.fs: tool "echo": duplicate tool name: left out: source "mcp.ev4" (declared first) serves that name (fix: add prefix = "fs_" to [mcp_servers.fs], to serve its tools as fs_echo…, or leave the shared ones out with exclude)`,
	}
	if got := problems(); !slices.Equal(got, want) {
		t.Errorf("after ev1 changed: problems mismatch\n got: %q\nwant: %q", got, want)
	}
	if echo, _ := c.Tool("echo"); echo.Summary != "ev4 echo" {
		t.Errorf("echo is %q, want ev4's once ev1 dropped it", echo.Summary)
	}
	if got, want := c.Names(), []string{"add", "echo", "env", "read_file", "sleep"}; !slices.Equal(got, want) {
		t.Errorf("names = %q, want %q", got, want)
	}
}

// TestAddSourceSlowListing: a source whose first listing takes longer
// than the list wait (an MCP server still starting, or one that hangs)
// delays AddSource by the wait alone; the catalog serves its other tools
// meanwhile, with one problem saying so; a lookup of a name not served
// waits for the listing; the source's tools are served, and subscribers
// told, when it ends; Close does not wait for it.
func TestAddSourceSlowListing(t *testing.T) {
	const wait = 100 * time.Millisecond
	c := catalog.New(&catalog.Options{ListWait: wait})
	t.Cleanup(func() { c.Close() })
	if err := c.Register(catalog.Definition{Name: "local"}, echoHandler); err != nil {
		t.Fatal(err)
	}
	slow := &fakeSource{name: "mcp.slow", tools: []catalog.Tool{searchTool}, gate: make(chan struct{})}
	began := time.Now()
	if err := c.AddSource(t.Context(), slow); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(began); took < wait || took > wait+time.Second {
		t.Errorf("AddSource took %v, want the list wait (%v)", took, wait)
	}
	if got, want := c.Names(), []string{"local"}; !slices.Equal(got, want) {
		t.Errorf("served %q while the source lists, want %q", got, want)
	}
	const problem = "source mcp.slow: its listing is still under way after 100ms"
	if got := problemsText(c.Report().Problems); !slices.Equal(got, []string{problem}) || !errors.Is(c.Report().Problems[0].Err, catalog.ErrListing) {
		t.Errorf("problems %q, want [%s] (ErrListing)", got, problem)
	}
	if out, err := c.Call(t.Context(), "local", nil, nil); err != nil || out.Content != "echo()" {
		t.Errorf("a call of another tool: %+v, %v", out, err)
	}
	changed := make(chan struct{}, 4)
	c.Subscribe(func() { changed <- struct{}{} })
	time.AfterFunc(wait, func() { close(slow.gate) })
	if _, ok := c.Tool("search"); !ok { // waits for the listing
		t.Fatalf("search is not served once the listing ended")
	}
	select {
	case <-changed:
	case <-time.After(5 * time.Second):
		t.Errorf("subscribers were not told of the source's tools")
	}
	if got := c.Report().Problems; len(got) != 0 {
		t.Errorf("problems after the listing: %q, want none", problemsText(got))
	}

	hung := &fakeSource{name: "mcp.hung", gate: make(chan struct{})}
	defer close(hung.gate)
	if err := c.AddSource(t.Context(), hung); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), wait)
	defer cancel()
	if err := c.WaitListed(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("WaitListed with a hung source: %v, want the deadline", err)
	}
	began = time.Now()
	c.Close()
	if took := time.Since(began); took > time.Second || hung.closes != 1 {
		t.Errorf("Close took %v and closed the hung source %d times; want at once, once", took, hung.closes)
	}
}

// problemsText is each problem as "PLACE: ERROR".
func problemsText(ps []catalog.Problem) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Place+": "+p.Err.Error())
	}
	return out
}

// TestSourceRunReport: what a source reports of each round (exit status,
// bytes, a sandbox denial) reaches the call's audit line through
// CallResult, summed over the rounds. The Secret answers of a round reach
// the source in CallRequest.Secrets and are redacted from the line.
func TestSourceRunReport(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.log")
	log, err := audit.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { log.Close() })
	c := catalog.New(&catalog.Options{Audit: log})
	t.Cleanup(func() { c.Close() })
	login := catalog.Tool{Definition: catalog.Definition{Name: "login", Summary: "Log in.", InputSchema: map[string]any{
		"type": "object", "properties": map[string]any{"token": map[string]any{"type": "string"}},
	}}, Enabled: true}
	exit := 7
	src := &fakeSource{name: "remote", tools: []catalog.Tool{login}, answer: func(req catalog.CallRequest) (catalog.CallResult, error) {
		if req.Answers["pw"] == nil {
			return catalog.CallResult{Outcome: tool.Ask(tool.Question{ID: "pw", Text: "Password?", AnswerType: tool.Secret}), BytesIn: 10, BytesOut: 20}, nil
		}
		return catalog.CallResult{Outcome: tool.Fail("denied"), Exit: &exit, BytesIn: 1, BytesOut: 2, Denial: "write /etc"}, nil
	}}
	if err := c.AddSource(t.Context(), src); err != nil {
		t.Fatal(err)
	}
	ask := func(context.Context, tool.Question) (any, error) { return "hunter2", nil }
	out, err := c.Call(t.Context(), "login", map[string]any{"token": "hunter2"}, &catalog.CallOptions{Ask: ask})
	if err != nil || out.Message != "denied" {
		t.Fatalf("Call = %+v, %v; want the error outcome denied", out, err)
	}
	if got := [][]string{src.calls[0].Secrets, src.calls[1].Secrets}; !reflect.DeepEqual(got, [][]string{nil, {"hunter2"}}) {
		t.Errorf("Secrets of the two rounds = %q, want [] then [hunter2]", got)
	}
	recs, err := audit.Recent(path, nil, 10)
	if err != nil || len(recs) != 1 {
		t.Fatalf("audit records = %+v, %v; want one", recs, err)
	}
	r := recs[0]
	if r.ExitStatus == nil || *r.ExitStatus != 7 || r.BytesIn != 11 || r.BytesOut != 22 || r.Sandbox.Denial != "write /etc" {
		t.Errorf("audit line: exit %v, bytes %d/%d, denial %q; want 7, 11/22, %q", r.ExitStatus, r.BytesIn, r.BytesOut, r.Sandbox.Denial, "write /etc")
	}
	if strings.Contains(string(r.Arguments), "hunter2") {
		t.Errorf("audit arguments %s hold the secret answer", r.Arguments)
	}
}

// TestCallSent: Call calls CallOptions.Sent once, with what it returns,
// whatever the end (an outcome, an unknown tool), with or without an
// audit log, and before the line is written: the line holds the cut Sent
// returns, and no cut when Sent is nil.
func TestCallSent(t *testing.T) {
	cut := audit.Cut{Kept: 3584, LeftOut: 8416, Blocks: 1, Result: "0123456789abcdef0123456789abcdef"}
	for _, tt := range []struct {
		name     string
		log      bool
		tool     string
		sent     bool      // Sent is set
		wantCut  audit.Cut // on the line
		wantErr  error
		wantText string
	}{
		{"logged", true, "echo", true, cut, nil, "hi"},
		{"logged, no Sent", true, "echo", false, audit.Cut{}, nil, "hi"},
		{"logged, unknown tool", true, "nope", true, cut, catalog.ErrUnknownTool, ""},
		{"no log", false, "echo", true, audit.Cut{}, nil, "hi"},
		{"no log, unknown tool", false, "nope", true, audit.Cut{}, catalog.ErrUnknownTool, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "audit.jsonl")
			opts := &catalog.Options{}
			if tt.log {
				log, err := audit.Open(path, nil)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { log.Close() })
				opts.Audit = log
			}
			c := catalog.New(opts)
			t.Cleanup(func() { c.Close() })
			if err := c.Register(catalog.Definition{Name: "echo", Summary: "Say hi."}, func(context.Context, map[string]any) (tool.Outcome, error) {
				return tool.Success("hi"), nil
			}); err != nil {
				t.Fatal(err)
			}
			var calls []string
			call := &catalog.CallOptions{}
			if tt.sent {
				call.Sent = func(out tool.Outcome, err error) audit.Cut {
					lines := 0
					if data, rerr := os.ReadFile(path); rerr == nil {
						lines = strings.Count(string(data), "\n")
					}
					calls = append(calls, fmt.Sprintf("%q %v, %d lines", out.Content, errors.Is(err, tt.wantErr) && (err == nil) == (tt.wantErr == nil), lines))
					return cut
				}
			}
			out, err := c.Call(t.Context(), tt.tool, map[string]any{}, call)
			if !errors.Is(err, tt.wantErr) || (err == nil) != (tt.wantErr == nil) || out.Content != tt.wantText {
				t.Fatalf("Call = %+v, %v; want %q, %v", out, err, tt.wantText, tt.wantErr)
			}
			if want := []string{fmt.Sprintf("%q true, 0 lines", tt.wantText)}; tt.sent && !reflect.DeepEqual(calls, want) {
				t.Errorf("Sent calls %q, want %q (once, with what Call returns, before the line)", calls, want)
			}
			if !tt.log {
				return
			}
			recs, err := audit.Recent(path, nil, 10)
			if err != nil || len(recs) != 1 {
				t.Fatalf("audit records = %+v, %v; want one", recs, err)
			}
			if recs[0].Cut != tt.wantCut {
				t.Errorf("the line's cut = %+v, want %+v", recs[0].Cut, tt.wantCut)
			}
		})
	}
}
