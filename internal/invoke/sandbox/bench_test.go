package sandbox

import (
	"os"
	"testing"
)

// BenchmarkPrepare is the host's share of a sandboxed one-shot call: the
// rules compiled against the file system, the ruleset, the environment,
// the private TMPDIR (made and removed).
func BenchmarkPrepare(b *testing.B) {
	root := b.TempDir()
	for _, d := range []string{"src", "docs", ".git", ".config/toolhost", "bin"} {
		if err := os.MkdirAll(root+"/"+d, 0o755); err != nil {
			b.Fatal(err)
		}
	}
	p := &Policy{Mode: ModeOn}
	env := os.Environ()
	for b.Loop() {
		l, err := Prepare(p, "/bin/true", root, env, nil)
		if err != nil {
			b.Fatal(err)
		}
		l.Cleanup()
	}
}

// BenchmarkPrepareProbe is BenchmarkPrepare for a schema request of an
// entry without fs rules: read everything but toolhost's own
// directories, write nothing.
func BenchmarkPrepareProbe(b *testing.B) {
	root := b.TempDir()
	p := (*Policy)(nil).Probe()
	env := os.Environ()
	for b.Loop() {
		l, err := Prepare(p, "/bin/true", root, env, nil)
		if err != nil {
			b.Fatal(err)
		}
		l.Cleanup()
	}
}
