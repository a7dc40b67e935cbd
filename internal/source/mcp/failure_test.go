package mcp

import (
	"encoding/json"
	"errors"
	"github.com/toolhost/toolhost/catalog"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestFailures: each misbehaving server gives a typed error within its
// timeout and grace, leaves nothing running (newSource's cleanup checks
// the process groups), and another server is still served meanwhile.
func TestFailures(t *testing.T) {
	healthy := newSource(t, fakeSpec(t, "healthy", "basic"), nil)
	tests := []struct {
		name      string
		scenario  string
		tool      string
		spec      func(*Spec)
		want      error   // errors.Is
		wantOp    string  // the *Error's Op
		wantIn    string  // in the message
		wantInErr string  // in Stderr
		limit     float64 // the bound, in units of (timeout + grace) of the step
		warm      bool    // start the server first: the short call timeout is the call's alone
	}{
		{name: "dies mid-call", scenario: "basic", tool: "die", want: ErrExited, wantOp: "call",
			wantIn: "exit status 3", wantInErr: "panic: out of cheese"},
		{name: "never answers the call", scenario: "basic", tool: "slow", want: catalog.ErrTimeout, wantOp: "call",
			spec: func(s *Spec) { s.CallTimeout = 300 * time.Millisecond }, wantIn: "no result within 300ms", warm: true},
		{name: "hangs whole", scenario: "basic", tool: "mute", want: catalog.ErrTimeout, wantOp: "call",
			spec: func(s *Spec) { s.CallTimeout = 300 * time.Millisecond }, wantIn: "no answer to a ping within 500ms: the server was ended", warm: true},
		{name: "floods notifications", scenario: "basic", tool: "flood", want: ErrFlood, wantOp: "call", wantIn: "more than 100"},
		{name: "exits before the handshake", scenario: "crash-start", tool: "echo", want: ErrHandshake, wantOp: "start",
			wantIn: "the server exited (exit status 2) before the handshake", wantInErr: "fatal: no config file"},
		{name: "never answers the handshake", scenario: "mute", tool: "echo", want: catalog.ErrTimeout, wantOp: "start",
			spec: func(s *Spec) { s.StartTimeout = 300 * time.Millisecond }, wantIn: "no answer to the handshake within 300ms"},
		{name: "not installed", scenario: "basic", tool: "echo", want: ErrStart, wantOp: "start",
			spec: func(s *Spec) { s.Command = "/nonexistent/mcp-server" }, wantIn: "no such file or directory"},
		{name: "calls a tool it did not list", scenario: "liar", tool: "hidden", want: catalog.ErrUnknownTool, wantOp: "call",
			wantIn: `call "hidden": the server does not list this tool`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec := fakeSpec(t, "bad", tt.scenario)
			if tt.spec != nil {
				tt.spec(&spec)
			}
			s := newSource(t, spec, &Options{MaxNotices: 100})
			var hooks *Hooks
			if tt.tool == "flood" {
				hooks = &Hooks{Progress: func(*Progress) {}}
			}
			if tt.warm { // a start under -race on a loaded machine can take longer than 300ms: started (listed) under the start timeout
				if _, err := s.Refresh(t.Context()); err != nil {
					t.Fatalf("starting the server: %v", err)
				}
			}
			start := time.Now()
			res, err := s.Call(t.Context(), tt.tool, json.RawMessage(`{}`), hooks)
			took := time.Since(start)
			var e *Error
			if !errors.As(err, &e) || !errors.Is(err, tt.want) {
				if res != nil {
					t.Fatalf("Call = %q, want an *Error wrapping %v", textOf(res), tt.want)
				}
				t.Fatalf("Call = %v; want an *Error wrapping %v", err, tt.want)
			}
			if e.Source != "bad" || e.Op != tt.wantOp || !strings.Contains(err.Error(), tt.wantIn) {
				t.Errorf("error %q (op %q), want op %q and %q in it", err, e.Op, tt.wantOp, tt.wantIn)
			}
			if !strings.Contains(e.Stderr, tt.wantInErr) {
				t.Errorf("stderr tail %q, want %q in it", e.Stderr, tt.wantInErr)
			}
			if e.Fix == "" && !errors.Is(err, catalog.ErrUnknownTool) {
				t.Errorf("error %q has no fix", err)
			}
			if bound := spec.StartTimeout + spec.CallTimeout + 2*spec.Grace; took > bound {
				t.Errorf("the error took %v, more than the timeouts and grace (%v)", took, bound)
			}
			if res, err := healthy.Call(t.Context(), "echo", json.RawMessage(`{"text":"still here"}`), nil); err != nil || textOf(res) != "still here" {
				t.Errorf("the healthy server, meanwhile: %v, %v", res, err)
			}
		})
	}
}

// TestBadListing: tools with invalid definitions are left out of the
// listing, each with an ErrBadTool naming it; the valid one is served.
func TestBadListing(t *testing.T) {
	s := newSource(t, fakeSpec(t, "liar", "liar"), nil)
	l, err := s.Tools(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if got := l.names(); !slices.Equal(got, []string{"good"}) {
		t.Errorf("tools %v, want [good]", got)
	}
	var got []string
	for _, e := range l.Skipped {
		if !errors.Is(e, ErrBadTool) {
			t.Errorf("skipped %v, want ErrBadTool", e)
		}
		got = append(got, e.Error())
	}
	want := []string{
		`mcp server "liar": list "stringly": the server lists a tool with an invalid definition: inputSchema: "type" is "string", want "object"`,
		`mcp server "liar": list "noschema": the server lists a tool with an invalid definition: inputSchema: not a JSON object: null`,
		`mcp server "liar": list "good": the server lists a tool with an invalid definition: the name is listed twice`,
		`mcp server "liar": list "badout": the server lists a tool with an invalid definition: outputSchema: "type" is "array", want "object"`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("skipped:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if res, err := s.Call(t.Context(), "good", nil, nil); err != nil || textOf(res) != "called good" {
		t.Errorf("Call(good) = %v, %v", res, err)
	}
}

// TestRestart: a server that died mid-call is started again by the next
// call, after its backoff.
func TestRestart(t *testing.T) {
	s := newSource(t, fakeSpec(t, "basic", "basic"), nil)
	if _, err := s.Call(t.Context(), "die", nil, nil); !errors.Is(err, ErrExited) {
		t.Fatalf("Call(die) = %v, want ErrExited", err)
	}
	res, err := s.Call(t.Context(), "echo", json.RawMessage(`{"text":"again"}`), nil)
	if err != nil || textOf(res) != "again" {
		t.Fatalf("Call after the crash = %v, %v", res, err)
	}
	if n := s.Starts(); n != 2 {
		t.Errorf("starts = %d, want 2", n)
	}
	if f := s.failuresNow(); f != 0 {
		t.Errorf("failures after an answer = %d, want 0", f)
	}
}

// TestBackoff: consecutive failures space the restarts: 100ms, 200ms, …,
// at most MaxBackoff; a caller whose deadline comes first gets ErrBackoff
// at once rather than waiting.
func TestBackoff(t *testing.T) {
	s := newSource(t, fakeSpec(t, "crash", "crash-start"), &Options{MaxBackoff: 300 * time.Millisecond})
	var waits []time.Duration
	for range 4 {
		_, err := s.Call(t.Context(), "echo", nil, nil)
		if !errors.Is(err, ErrHandshake) {
			t.Fatalf("Call = %v, want ErrHandshake", err)
		}
		s.mu.Lock()
		waits = append(waits, time.Until(s.retryAt).Round(100*time.Millisecond))
		s.mu.Unlock()
	}
	if want := []time.Duration{100 * time.Millisecond, 200 * time.Millisecond, 300 * time.Millisecond, 300 * time.Millisecond}; !slices.Equal(waits, want) {
		t.Errorf("backoffs %v, want %v", waits, want)
	}
	spec := s.spec
	spec.CallTimeout = 10 * time.Millisecond
	s.spec = spec
	if _, err := s.Call(t.Context(), "echo", nil, nil); !errors.Is(err, ErrBackoff) || !strings.Contains(err.Error(), "4 failures in a row") {
		t.Errorf("Call during the backoff = %v, want ErrBackoff after 4 failures", err)
	}
}

// TestIdleReap: a connection with no call for IdleTimeout is closed and
// its process group ends; the next call starts the server again.
func TestIdleReap(t *testing.T) {
	spec := fakeSpec(t, "basic", "basic")
	spec.IdleTimeout = 100 * time.Millisecond
	s := newSource(t, spec, nil)
	if _, err := s.Call(t.Context(), "echo", nil, nil); err != nil {
		t.Fatal(err)
	}
	s.mu.Lock()
	pg := s.conn.proc.pgid
	s.mu.Unlock()
	groupGone(t, pg)
	if s.Running() {
		t.Error("Running after the idle timeout")
	}
	if _, err := s.Call(t.Context(), "echo", nil, nil); err != nil {
		t.Fatal(err)
	}
	if n := s.Starts(); n != 2 {
		t.Errorf("starts = %d, want 2", n)
	}
	if f := s.failuresNow(); f != 0 {
		t.Errorf("an idle close counted as %d failures", f)
	}
}

// TestCloseEndsGroup: Close ends the server and what it started in its
// group; later calls get ErrClosed.
func TestCloseEndsGroup(t *testing.T) {
	s := newSource(t, fakeSpec(t, "basic", "basic"), nil)
	res, err := s.Call(t.Context(), "spawn", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	child, err := strconv.Atoi(textOf(res))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	gone(t, child, "the server's child")
	if _, err := s.Call(t.Context(), "echo", nil, nil); !errors.Is(err, ErrClosed) {
		t.Errorf("Call after Close = %v, want ErrClosed", err)
	}
}

// TestEnvHook: Options.Env is read at each start and its variables
// reach the server (the seam for its secrets); its failure is the
// start's error.
func TestEnvHook(t *testing.T) {
	reads := 0
	s := newSource(t, fakeSpec(t, "basic", "basic"), &Options{Env: func() ([]string, error) {
		reads++
		return []string{"FAKE_SECRET=s3cret"}, nil
	}})
	res, err := s.Call(t.Context(), "inherited", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := textOf(res); !strings.Contains(got, "FAKE_SECRET=s3cret") {
		t.Errorf("the server's environment lacks the hook's variable: %s", got)
	}
	if reads != 1 {
		t.Errorf("Env read %d times for one start, want 1", reads)
	}
	bad := newSource(t, fakeSpec(t, "basic", "basic"), &Options{Env: func() ([]string, error) { return nil, errors.New(`env.TOKEN: secret "env:NOPE" is not set`) }})
	_, err = bad.Call(t.Context(), "echo", nil, nil)
	if want := `mcp server "basic": start: the server did not start: env.TOKEN: secret "env:NOPE" is not set`; !errors.Is(err, ErrStart) || err == nil || err.Error() != want {
		t.Errorf("Call with a failing hook = %v, want ErrStart: %s", err, want)
	}
}

// TestSlowStart: a caller whose timeout is shorter than a start under way
// gets catalog.ErrTimeout at its own deadline, and Close ends the start at once.
func TestSlowStart(t *testing.T) {
	spec := fakeSpec(t, "mute", "mute")
	spec.StartTimeout, spec.CallTimeout = time.Minute, 200*time.Millisecond
	s := newSource(t, spec, nil)
	start := time.Now()
	_, err := s.Call(t.Context(), "echo", nil, nil)
	if !errors.Is(err, catalog.ErrTimeout) || !strings.Contains(err.Error(), "the server did not start within the call's timeout (200ms)") {
		t.Errorf("Call = %v, want catalog.ErrTimeout at the call's deadline", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("Call took %v with a 200ms call timeout", d)
	}
	start = time.Now()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("Close took %v during a start with a 1m timeout", d)
	}
}
