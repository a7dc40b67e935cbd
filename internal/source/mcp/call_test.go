package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestCallForwards: each forwarded feature passes whole, over the newest
// protocol and over 2025-11-25 (where elicitation is a server request
// rather than a multi round-trip).
func TestCallForwards(t *testing.T) {
	for _, version := range []string{"", "2025-11-25"} {
		spec := fakeSpec(t, "basic", "basic")
		spec.ProtocolVersion = version
		s := newSource(t, spec, nil)
		tests := []struct {
			name, tool string
			hooks      func(got *[]string) *Hooks
			wantText   string
			wantErr    bool // isError
			wantSeen   []string
			wantStruct any
		}{
			{name: "structured output", tool: "echo", wantText: "hi", wantStruct: map[string]any{"echo": "hi"}},
			{name: "tool error is data", tool: "fail", wantText: "the tool failed", wantErr: true},
			{name: "progress", tool: "progress", wantText: "done",
				hooks: func(got *[]string) *Hooks {
					return &Hooks{Progress: func(p *Progress) { *got = append(*got, p.Message) }}
				},
				wantSeen: []string{"step 1", "step 2", "step 3"}},
			{name: "log", tool: "log", wantText: "logged",
				hooks: func(got *[]string) *Hooks {
					return &Hooks{Log: func(m *LogMessage) { *got = append(*got, string(m.Level)+" "+m.Data.(string)) }}
				},
				wantSeen: []string{"info hello from the server"}},
			{name: "elicitation", tool: "ask", wantText: "accept blue",
				hooks: func(got *[]string) *Hooks {
					return &Hooks{Elicit: func(_ context.Context, p *mcp.ElicitParams) (*mcp.ElicitResult, error) {
						*got = append(*got, p.Message)
						return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"color": "blue"}}, nil
					}}
				},
				wantSeen: []string{"Which color?"}},
			{name: "elicitation without a hook is declined", tool: "ask", wantText: "decline <nil>"},
		}
		for _, tt := range tests {
			t.Run(tt.name+"/"+version, func(t *testing.T) {
				var seen []string
				var hooks *Hooks
				if tt.hooks != nil {
					hooks = tt.hooks(&seen)
				}
				res, err := s.Call(t.Context(), tt.tool, json.RawMessage(`{"text":"hi"}`), hooks)
				if err != nil {
					t.Fatalf("Call: %v", err)
				}
				if got := textOf(res); got != tt.wantText || res.IsError != tt.wantErr {
					t.Errorf("result %q isError=%v, want %q isError=%v", got, res.IsError, tt.wantText, tt.wantErr)
				}
				if !reflect.DeepEqual(seen, tt.wantSeen) {
					t.Errorf("hooks saw %q, want %q", seen, tt.wantSeen)
				}
				if !reflect.DeepEqual(res.StructuredContent, tt.wantStruct) {
					t.Errorf("structuredContent %#v, want %#v", res.StructuredContent, tt.wantStruct)
				}
			})
		}
		if n := s.Starts(); n != 1 {
			t.Errorf("the server was started %d times for %d calls, want once", n, len(tests))
		}
	}
}

// TestCallCancel: a caller's cancelled context ends the call at once and
// the server gets notifications/cancelled (its handler's context ends).
func TestCallCancel(t *testing.T) {
	s := newSource(t, fakeSpec(t, "basic", "basic"), nil)
	mark := filepath.Join(t.TempDir(), "cancelled")
	ctx, cancel := context.WithCancel(t.Context())
	go func() {
		for s.only(func(*call) bool { return true }) == nil {
			time.Sleep(5 * time.Millisecond)
		}
		time.Sleep(50 * time.Millisecond) // let the request reach the server
		cancel()
	}()
	_, err := s.Call(ctx, "slow", json.RawMessage(`{"mark":"`+mark+`"}`), nil)
	var e *Error
	if !errors.As(err, &e) || !errors.Is(err, context.Canceled) || e.Op != "call" || e.Tool != "slow" {
		t.Fatalf("Call = %v, want an *Error wrapping context.Canceled", err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		if b, _ := os.ReadFile(mark); string(b) == "cancelled" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the server's handler never saw the cancellation")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if res, err := s.Call(t.Context(), "echo", json.RawMessage(`{"text":"after"}`), nil); err != nil || textOf(res) != "after" {
		t.Errorf("a call after the cancelled one = %v, %v", res, err)
	}
}

// TestListChanged: a server that adds a tool while connected sends
// list_changed; the Source lists again, calls OnChange, and serves the new
// tool.
func TestListChanged(t *testing.T) {
	changed := make(chan struct{}, 4)
	s := newSource(t, fakeSpec(t, "basic", "basic"), &Options{OnChange: func() { changed <- struct{}{} }})
	if _, err := s.Call(t.Context(), "grow", nil, nil); err != nil {
		t.Fatal(err)
	}
	select {
	case <-changed:
	case <-time.After(10 * time.Second):
		t.Fatal("OnChange was not called after list_changed")
	}
	l, err := s.Tools(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(l.names(), "extra") {
		t.Errorf("tools after list_changed = %v, want extra among them", l.names())
	}
	if res, err := s.Call(t.Context(), "extra", nil, nil); err != nil || textOf(res) != "extra" {
		t.Errorf("Call(extra) = %v, %v", res, err)
	}
}

// TestShared: concurrent callers share one server.
func TestShared(t *testing.T) {
	s := newSource(t, fakeSpec(t, "basic", "basic"), nil)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Go(func() {
			res, err := s.Call(t.Context(), "echo", json.RawMessage(`{"text":"x"}`), nil)
			if err == nil && textOf(res) != "x" {
				err = errors.New("wrong text " + textOf(res))
			}
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if n := s.Starts(); n != 1 {
		t.Errorf("8 concurrent calls started the server %d times, want 1", n)
	}
}

// TestLogRouting: a log message, which the protocol does not tie to a
// call, reaches a call's hook only while that call is alone in flight;
// otherwise it goes to Options.Log.
func TestLogRouting(t *testing.T) {
	sourceLog := make(chan string, 4)
	s := newSource(t, fakeSpec(t, "basic", "basic"), &Options{Log: func(m *LogMessage) { sourceLog <- m.Data.(string) }})
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		_, err := s.Call(ctx, "slow", nil, nil)
		done <- err
	}()
	for s.only(func(*call) bool { return true }) == nil {
		time.Sleep(5 * time.Millisecond)
	}
	var hooked []string
	if _, err := s.Call(t.Context(), "log", nil, &Hooks{Log: func(m *LogMessage) { hooked = append(hooked, m.Data.(string)) }}); err != nil {
		t.Fatal(err)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("the slow call: %v", err)
	}
	select {
	case got := <-sourceLog:
		if got != "hello from the server" || len(hooked) != 0 {
			t.Errorf("Options.Log got %q, the call's hook %q", got, hooked)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("Options.Log got nothing; the call's hook %q", hooked)
	}
}

// TestListChangedStorm: 500 list_changed notifications in a burst cost
// the server a few listings, not one each: one under way when they come,
// one after it for those that came during it, and (on a loaded machine,
// where the client reads the last notifications only during that second
// listing) a third; the server takes 100 ms a listing. The new tools are
// served.
func TestListChangedStorm(t *testing.T) {
	count := filepath.Join(t.TempDir(), "lists")
	s := newSource(t, fakeSpec(t, "storm", "storm", "FAKE_COUNT_FILE="+count), nil)
	if res, err := s.Call(t.Context(), "storm", nil, nil); err != nil || textOf(res) != "stormed" {
		t.Fatalf("Call(storm) = %v, %v", res, err)
	}
	deadline := time.Now().Add(10 * time.Second) // a hang detector
	for {
		l, err := s.Tools(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if l.has("extra") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("tools after the storm = %v, want extra among them", l.names())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(count)
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := strconv.Atoi(string(data)); n < 1 || n > 3 {
		t.Errorf("the server was asked tools/list %d times after 500 list_changed, want 1 to 3", n)
	}
}
