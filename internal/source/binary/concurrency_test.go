package binary

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolhost/toolhost/catalog"
)

// TestConcurrentUse drives every method at once; run with -race.
func TestConcurrentUse(t *testing.T) {
	t.Parallel()
	bin := filepath.Join(t.TempDir(), "tool")
	copyExe(t, bin, nil)
	cfg := parse(t, `
[tools.v]
command = ["`+bin+`", "versioned"]
[toolsets.m]
command = ["%EXE%", "multi"]
include = ["t1", "t2"]
`)
	c, err := newCatalog(t.Context(), cfg, &Options{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	c.bins.statEvery = 0 // every Call checks the binaries
	rebuilt := bin + ".rebuilt"
	copyExe(t, rebuilt, []byte("rebuilt")) // here: copyExe may call t.Fatal
	cancel := c.Subscribe(func() { _ = c.List() })
	defer cancel()
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			name := fmt.Sprintf("dyn%d", i)
			for range 5 {
				if err := c.Register(catalog.Definition{Name: name}, echoHandler); err != nil {
					errs <- err
				}
				if _, err := c.Call(t.Context(), name, nil, nil); err != nil {
					errs <- err
				}
				if err := c.Unregister(name); err != nil {
					errs <- err
				}
			}
		}()
	}
	for i := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i == 0 { // rebuild the binary while the others call
				if err := os.Rename(rebuilt, bin); err != nil {
					errs <- err
				}
			}
			for range 3 {
				if out, err := c.Call(t.Context(), "t1", map[string]any{"path": "x"}, nil); err != nil || out.IsError() {
					errs <- fmt.Errorf("Call(t1) = %v, %v", out, err)
				}
				_, _ = c.Refresh(t.Context())
				_ = c.Identity()
				_ = c.Tools()
				_ = c.Names()
				_, _ = c.Format(t.Context(), "t2", nil)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if got := strings.Join(c.Names(), " "); got != "t1 t2 v" {
		t.Errorf("Names = %s", got)
	}
}

func TestAskSchema(t *testing.T) {
	t.Parallel()
	resp, err := AskSchema(t.Context(), []string{exe(t), "multi"}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Tools) != 10 || resp.Tools[3].Name != "t3" {
		t.Errorf("tools = %v", resp.Names())
	}
	tests := []struct {
		command []string
		want    error
		msg     string
	}{
		{[]string{exe(t), "exit-3"}, ErrExit, "[tools.NAME.parameters.ARG]"},
		{[]string{exe(t), "plain"}, ErrNotJSON, "upgrade the binary"},
		{[]string{"/nonexistent/tool"}, catalog.ErrNotFound, "does not exist"},
	}
	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	_, err = AskSchema(ctx, []string{exe(t), "hang"}, "")
	if want := "\nfix: a binary must answer the schema action at once and without side effects (toolhost waits at most 60s); if"; !errors.Is(err, catalog.ErrTimeout) || !strings.Contains(shown(err), want) {
		t.Errorf("AskSchema(hang) = %v, want ErrTimeout with %q", err, want)
	}
	// The fix's command, pasted, runs the same argv: a word with a space
	// or a quote makes it an array.
	_, err = AskSchema(t.Context(), []string{exe(t), "plain", `print("hi there")`}, "")
	want := fmt.Sprintf(`"%[1]s plain print(\"hi there\")" does not describe itself; register it with its parameters declared in TOML:

    [tools.NAME]
    command = ["%[1]s", "plain", "print(\"hi there\")"]
    [tools.NAME.parameters.ARG]   # one table per argument
    type = "string"
    summary = "What ARG is."

or, for a command that takes no arguments, parameters = {} in [tools.NAME]

or upgrade the binary to answer the schema action (protocol v1; Go tools: sdk.Main)`, exe(t))
	if got := catalog.FixOf(err); got != want {
		t.Errorf("AskSchema(plain) fix:\n%s\nwant:\n%s", got, want)
	}
	// An interpreter given a script that is not there: the script is the
	// fix, not the parameters.
	root := t.TempDir()
	_, err = AskSchema(t.Context(), []string{"/bin/sh", "nosuch.sh"}, root)
	want = "the script nosuch.sh is missing: /bin/sh exited without running it (relative paths are taken from " + root + "); create it, or fix the command"
	if got := catalog.FixOf(err); !errors.Is(err, ErrExit) || got != want {
		t.Errorf("AskSchema(sh nosuch.sh) = %v, fix:\n%s\nwant:\n%s", err, got, want)
	}
	for _, tt := range tests {
		_, err := AskSchema(t.Context(), tt.command, "")
		var rerr *catalog.Error
		if !errors.Is(err, tt.want) || !errors.As(err, &rerr) || !strings.Contains(shown(err), tt.msg) {
			t.Errorf("AskSchema(%q) = %v, want %v with %q", tt.command, err, tt.want, tt.msg)
		}
	}
}

func TestDefaultCacheDir(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", "/xdg/cache")
	if got := DefaultCacheDir(); got != "/xdg/cache/toolhost" {
		t.Errorf("with XDG_CACHE_HOME: %s", got)
	}
	t.Setenv("XDG_CACHE_HOME", "relative")
	t.Setenv("HOME", "/home/ada")
	if got := DefaultCacheDir(); got != "/home/ada/.cache/toolhost" {
		t.Errorf("without: %s", got)
	}
}

// TestConcurrentRefreshSharesOneRequest: a binary rebuilt under a catalog
// that many goroutines use at once is asked exactly once more, and the
// change is published exactly once.
func TestConcurrentRefreshSharesOneRequest(t *testing.T) {
	t.Parallel()
	count, asked := counter(t)
	bin := filepath.Join(t.TempDir(), "tool")
	copyExe(t, bin, nil)
	cfg := parse(t, `
[tools.v]
command = ["`+bin+`", "versioned"]
env = { RESOLVER_TEST_COUNTER = "`+count+`" }
`)
	c, err := newCatalog(t.Context(), cfg, &Options{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	c.bins.statEvery = 0 // every Call checks the binaries
	rebuilt := bin + ".rebuilt"
	copyExe(t, rebuilt, []byte("rebuilt")) // here: copyExe may call t.Fatal
	var notified atomic.Int32
	c.Subscribe(func() { notified.Add(1) })
	id := c.Identity()
	copyExe(t, bin, []byte("rebuilt"))

	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i%2 == 0 {
				if _, err := c.Refresh(t.Context()); err != nil {
					errs <- err
				}
				return
			}
			if out, err := c.Call(t.Context(), "v", nil, nil); err != nil || out.IsError() {
				errs <- fmt.Errorf("Call = %v, %v", out, err)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if got := asked(); got != 2 {
		t.Errorf("%d schema requests, want 2 (one at New, one shared after the rebuild)", got)
	}
	if got := notified.Load(); got != 1 {
		t.Errorf("subscribers notified %d times, want 1", got)
	}
	if c.Identity() == id {
		t.Error("identity unchanged after the rebuild")
	}
	if v, _ := c.Tool("v"); v.Summary != "Version "+sizeOf(t, bin)+"." {
		t.Errorf("summary %q: the rebuilt binary's answer is not served", v.Summary)
	}
}
