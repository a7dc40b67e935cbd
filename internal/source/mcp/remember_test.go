package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/toolhost/toolhost/catalog"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"
)

// record reads the remembered failure of spec in dir, failing the test
// when there is none.
func record(t *testing.T, dir string, spec Spec) startRecord {
	t.Helper()
	spec.defaults()
	raw, err := os.ReadFile((&diskCache{dir: dir}).recordPath(&spec))
	if err != nil {
		t.Fatalf("no remembered failure: %v", err)
	}
	var r startRecord
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

// TestRememberedFailure checks that a failed start is remembered across
// Sources (as across processes) with a wait that doubles: a Source made
// during the wait refuses at once, starting nothing, with the cause and
// fix; a changed spec and Options.Retry start at once; a start that
// succeeds forgets the failure.
func TestRememberedFailure(t *testing.T) {
	dir := t.TempDir()
	gate := filepath.Join(t.TempDir(), "gate")
	spec := fakeSpec(t, "gated", "gate", "FAKE_GATE="+gate)
	spec.StartTimeout = 300 * time.Millisecond

	first := newSource(t, spec, &Options{CacheDir: dir})
	if _, err := first.Tools(t.Context()); !errors.Is(err, catalog.ErrTimeout) {
		t.Fatalf("first start: %v, want catalog.ErrTimeout", err)
	}
	r := record(t, dir, spec)
	if r.Failures != 1 || r.RetryAt.Sub(r.Failed) != time.Minute || r.Cause != "the server did not answer in time: no answer to the handshake within 300ms" {
		t.Errorf("record = %+v, want 1 failure, a wait of 1m, the handshake's timeout", r)
	}

	later := newSource(t, spec, &Options{CacheDir: dir})
	began := time.Now()
	_, err := later.Tools(t.Context())
	if took := time.Since(began); took > 100*time.Millisecond || later.Starts() != 0 {
		t.Errorf("a Source during the wait took %v and started %d times, want at once and none", took, later.Starts())
	}
	want := fmt.Sprintf(`mcp server "gated": start: the server failed recently and is waiting to restart: `+
		`the server did not answer in time: no answer to the handshake within 300ms (at %s); next try in 1m0s`, r.Failed.Local().Format("15:04:05"))
	var e *Error
	if !errors.As(err, &e) || err.Error() != want || !errors.Is(err, ErrBackoff) || !errors.Is(err, catalog.ErrTimeout) {
		t.Fatalf("during the wait:\n got %v\nwant %s (ErrBackoff and catalog.ErrTimeout)", err, want)
	}
	if wantFix := `run "` + spec.Command + ` gate" by hand: it must speak MCP (JSON-RPC, one message a line) on stdout and log only to stderr, ` +
		`or raise start_timeout; it is tried again then; to try now, run toolhost check`; e.Fix != wantFix {
		t.Errorf("fix mismatch (-want +got):\n-%s\n+%s", wantFix, e.Fix)
	}

	retry := newSource(t, spec, &Options{CacheDir: dir, Retry: true})
	if _, err := retry.Tools(t.Context()); !errors.Is(err, catalog.ErrTimeout) || errors.Is(err, ErrBackoff) || retry.Starts() != 1 {
		t.Fatalf("with Retry: %v after %d starts, want one start and catalog.ErrTimeout", err, retry.Starts())
	}
	if r := record(t, dir, spec); r.Failures != 2 || r.RetryAt.Sub(r.Failed) != 2*time.Minute {
		t.Errorf("after a second failure: %d failures, a wait of %v; want 2 and 2m", r.Failures, r.RetryAt.Sub(r.Failed))
	}

	if err := os.WriteFile(gate, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	changed := spec
	changed.StartTimeout = 10 * time.Second // a changed table is tried at once
	fixed := newSource(t, changed, &Options{CacheDir: dir})
	if _, err := fixed.Tools(t.Context()); err != nil || fixed.Starts() != 1 {
		t.Fatalf("changed spec: %v after %d starts, want the tools after one start", err, fixed.Starts())
	}
	again := newSource(t, spec, &Options{CacheDir: dir, Retry: true})
	if _, err := again.Refresh(t.Context()); err != nil { // the cached listing would start nothing
		t.Fatalf("after the fix: %v", err)
	}
	if _, err := os.Stat((&diskCache{dir: dir}).recordPath(&spec)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the failure is still remembered after a start that succeeded: %v", err)
	}
}

// TestRememberedUnfinished checks that a start still under way when its
// Source is closed (a command that waited for it and went on without
// it) is remembered as a failure, so that the next command does not wait
// again; one closed at once is not.
func TestRememberedUnfinished(t *testing.T) {
	for _, tt := range []struct {
		name string
		wait time.Duration
		want bool
	}{
		{"waited", 1200 * time.Millisecond, true},
		{"closed at once", 100 * time.Millisecond, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			spec := fakeSpec(t, "mute", "mute")
			s := newSource(t, spec, &Options{CacheDir: dir})
			ctx, cancel := context.WithTimeout(t.Context(), tt.wait)
			defer cancel()
			if _, err := s.Tools(ctx); !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("Tools: %v, want the caller's deadline", err)
			}
			s.Close()
			path := (&diskCache{dir: dir}).recordPath(&s.spec)
			if _, err := os.Stat(path); !tt.want {
				if !errors.Is(err, os.ErrNotExist) {
					t.Errorf("remembered: %v, want nothing", err)
				}
				return
			}
			r := record(t, dir, spec)
			if re := regexp.MustCompile(`^the server did not answer in time: no answer within the 1\.[2-9]s toolhost waited before it went on without the server$`); r.Failures != 1 || !re.MatchString(r.Cause) {
				t.Errorf("record: %d failures, cause %q, want 1 matching %s", r.Failures, r.Cause, re)
			}
			if want := "toolhost check waits up to start_timeout (10s) for it; raise start_timeout if the server needs longer to start (npx downloads its package on a first run)"; r.Fix != want {
				t.Errorf("fix mismatch (-want +got):\n-%s\n+%s", want, r.Fix)
			}
		})
	}
}

// FuzzLoadRecord: any bytes in a remembered failure's file are ignored or
// loaded, never a panic; a start is never refused for longer than the
// longest wait.
func FuzzLoadRecord(f *testing.F) {
	exe, err := os.Executable()
	if err != nil {
		f.Fatal(err)
	}
	spec := Spec{Name: "fuzz", Command: exe}
	spec.defaults()
	key := failKey(&spec)
	now := time.Now().UTC()
	for _, r := range []startRecord{
		{Version: 1, Key: key, Failures: 1, Failed: now, RetryAt: now.Add(time.Minute), Cause: "c", Is: []string{"timeout", "nosuch"}},
		{Version: 1, Key: key, Failures: 3, Failed: now, RetryAt: now.Add(100 * 365 * 24 * time.Hour)},
		{Version: 1, Key: key, Failures: 1, Failed: now.Add(24 * time.Hour), RetryAt: now.Add(25 * time.Hour)},
	} {
		raw, _ := json.Marshal(r)
		f.Add(raw)
	}
	f.Add([]byte(`not json`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		d := &diskCache{dir: t.TempDir()}
		if err := os.WriteFile(d.recordPath(&spec), raw, 0o600); err != nil {
			t.Fatal(err)
		}
		s := &Source{spec: spec, cache: d}
		err := s.backingOff("start", "")
		var e *Error
		if err == nil {
			return
		}
		if !errors.As(err, &e) || !errors.Is(err, ErrBackoff) {
			t.Fatalf("backingOff: %v, want an *Error with ErrBackoff", err)
		}
		if r := d.loadRecord(&spec); r == nil || time.Until(r.RetryAt) > rememberMax {
			t.Fatalf("refused by %+v, a wait over %v", r, rememberMax)
		}
	})
}

// TestNotRemembered: a failure that costs no wait and is fixed outside
// the spec (a program not installed, a bearer token's variable unset) is
// not remembered, so the next start sees the fix.
func TestNotRemembered(t *testing.T) {
	for _, tt := range []struct {
		name string
		spec Spec
		want error
	}{
		{"not installed", Spec{Name: "gone", Command: filepath.Join(t.TempDir(), "mcp-server-gone")}, ErrStart},
		{"no token", Spec{Name: "remote", URL: "http://127.0.0.1:1/mcp", BearerEnv: "MCPSRC_REMEMBER_NO_TOKEN"}, ErrNoToken},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			s := newSource(t, tt.spec, &Options{CacheDir: dir})
			if _, err := s.Tools(t.Context()); !errors.Is(err, tt.want) {
				t.Fatalf("Tools: %v, want %v", err, tt.want)
			}
			spec := tt.spec
			spec.defaults()
			if _, err := os.Stat((&diskCache{dir: dir}).recordPath(&spec)); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("remembered (%v), want nothing", err)
			}
		})
	}
}

// TestRememberedRetry checks that a Source that lives on (serve) calls
// OnChange when a remembered failure's wait is over, and that the listing
// it then asks for starts the server again.
func TestRememberedRetry(t *testing.T) {
	defer func(first time.Duration) { rememberFirst = first }(rememberFirst)
	rememberFirst = 300 * time.Millisecond
	changed := make(chan struct{}, 1)
	spec := fakeSpec(t, "mute", "mute")
	spec.StartTimeout = 200 * time.Millisecond
	s := newSource(t, spec, &Options{CacheDir: t.TempDir(), OnChange: func() { changed <- struct{}{} }})
	if _, err := s.Tools(t.Context()); !errors.Is(err, catalog.ErrTimeout) {
		t.Fatalf("first start: %v, want catalog.ErrTimeout", err)
	}
	if _, err := s.Tools(t.Context()); !errors.Is(err, ErrBackoff) || s.Starts() != 1 {
		t.Fatalf("during the wait: %v after %d starts, want ErrBackoff after one", err, s.Starts())
	}
	select {
	case <-changed:
	case <-time.After(5 * time.Second):
		t.Fatal("OnChange was not called when the wait was over")
	}
	if _, err := s.Tools(t.Context()); !errors.Is(err, catalog.ErrTimeout) || errors.Is(err, ErrBackoff) || s.Starts() != 2 {
		t.Errorf("after the wait: %v after %d starts, want a second start and catalog.ErrTimeout", err, s.Starts())
	}
}
