package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/toolhost/toolhost/resolver"
)

func TestCacheClear(t *testing.T) {
	dir := workspace(t, greetTOML)
	cache := resolver.DefaultCacheDir()
	if !strings.HasPrefix(cache, os.Getenv("XDG_CACHE_HOME")) {
		t.Fatalf("cache dir %s is not under the test's XDG_CACHE_HOME", cache)
	}
	countFiles := func() int {
		n := 0
		filepath.WalkDir(cache, func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				n++
			}
			return nil
		})
		return n
	}
	if r := runIn(t, dir, "", nil, "cache", "clear"); r.code != 0 || r.stdout != "cleared "+cache+"\n" {
		t.Fatalf("cache clear: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	if r := runIn(t, dir, "", nil, "--no-cache", "list"); r.code != 0 || countFiles() != 0 {
		t.Fatalf("--no-cache list: exit %d, %d files in the cache", r.code, countFiles())
	}
	if r := runIn(t, dir, "", nil, "list"); r.code != 0 || countFiles() == 0 {
		t.Fatalf("list: exit %d, %d files in the cache, want some", r.code, countFiles())
	}
	if r := runIn(t, dir, "", nil, "cache", "clear"); r.code != 0 || countFiles() != 0 {
		t.Fatalf("cache clear: exit %d, %d files left", r.code, countFiles())
	}
	if r := runIn(t, dir, "", nil, "cache"); r.code != 0 || !strings.Contains(r.stdout, "clear") {
		t.Errorf("cache: exit %d, stdout %q; want its help", r.code, r.stdout)
	}
}

func TestProgress(t *testing.T) {
	var buf syncBuffer
	p := startProgress(&buf, 10*time.Millisecond)
	p.update(1, 3)
	time.Sleep(50 * time.Millisecond)
	p.update(2, 3)
	p.stop()
	p.update(3, 3) // after stop: nothing
	want := "\r\x1b[Kresolving tools 1/3…\r\x1b[Kresolving tools 2/3…\r\x1b[K"
	if got := buf.String(); got != want {
		t.Errorf("progress output %q, want %q", got, want)
	}

	var quick syncBuffer
	p = startProgress(&quick, time.Hour)
	p.update(1, 1)
	p.stop()
	if quick.String() != "" {
		t.Errorf("fast resolution printed %q, want nothing", quick.String())
	}
	var nilProgress *progress
	nilProgress.stop() // no terminal: no progress, stop is a no-op
}

var ansi = regexp.MustCompile("\x1b\\[[0-9;]*m")

func TestColourTablesStayAligned(t *testing.T) {
	for _, on := range []bool{false, true} {
		var buf bytes.Buffer
		a := &app{ioStreams: ioStreams{stdout: &buf, out: palette{on: on}}}
		a.writeParams(&buf, map[string]any{
			"type": "object",
			"properties": map[string]any{
				"a":           map[string]any{"type": "string"},
				"much_longer": map[string]any{"type": "integer", "default": 3},
			},
			"required": []any{"a"},
		}, "  ")
		got := buf.String()
		if on != strings.Contains(got, "\x1b[") {
			t.Errorf("colour %v: output %q", on, got)
		}
		want := "  PARAMETER    TYPE     REQUIRED  DEFAULT  DESCRIPTION\n" +
			"  a            string   yes       -\n" +
			"  much_longer  integer  no        3\n"
		if plain := ansi.ReplaceAllString(got, ""); plain != want {
			t.Errorf("colour %v: table mismatch (-want +got):\n-%q\n+%q", on, want, plain)
		}
	}
}

func TestNewPalette(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	var buf bytes.Buffer
	if newPalette(&buf, env(nil)).on {
		t.Error("colour on for a buffer")
	}
	if newPalette(os.Stdout, env(map[string]string{"NO_COLOR": "1"})).on {
		t.Error("colour on with NO_COLOR")
	}
	if newPalette(os.Stdout, env(map[string]string{"TERM": "dumb"})).on {
		t.Error("colour on with TERM=dumb")
	}
	if p := (palette{}); p.red("x") != "x" {
		t.Error("colour off still colours")
	}
}

func TestDurationText(t *testing.T) {
	for d, want := range map[time.Duration]string{
		60 * time.Second:        "60s",
		30 * time.Second:        "30s",
		10 * time.Minute:        "10m",
		1500 * time.Millisecond: "1.5s",
	} {
		if got := durationText(d); got != want {
			t.Errorf("durationText(%v) = %q, want %q", d, got, want)
		}
	}
}
