package figures

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/config/trust"
)

// sandboxWorkspaces makes two workspaces holding one copy of five each,
// one entry b07_alpha, identical but for [defaults] sandbox: "plain"
// (false) and "boxed" (true: Landlock from a confined thread, a minimal
// environment, a private TMPDIR).
func sandboxWorkspaces(b *testing.B, f *fixture) (plain, boxed string) {
	b.Helper()
	for _, ws := range []struct {
		name, sandbox string
	}{{"ws-plain", "false"}, {"ws-boxed", "true"}} {
		dir := filepath.Join(f.dir, ws.name)
		if err := copyFile(filepath.Join(f.dir, "bins", "five"), filepath.Join(dir, "bin/five07")); err != nil {
			b.Fatal(err)
		}
		cfg := fmt.Sprintf("[defaults]\nsandbox = %s\n\n[tools.b07_alpha]\ncommand = \"bin/five07\"\ntool = \"alpha\"\n", ws.sandbox)
		if err := writeFile(filepath.Join(dir, ".config/toolhost/tools.toml"), cfg); err != nil {
			b.Fatal(err)
		}
		if err := writeFile(filepath.Join(dir, "a.txt"), "hello\n"); err != nil {
			b.Fatal(err)
		}
		// Trusted, as `toolhost trust` does (see setup).
		w, err := config.FindWorkspace(dir)
		if err == nil {
			_, err = (&trust.Store{Dir: filepath.Join(f.dir, "data", "toolhost", "trust")}).Trust(w.Root, w.Sums())
		}
		if err != nil {
			b.Fatal(err)
		}
		if ws.sandbox == "true" {
			boxed = dir
		} else {
			plain = dir
		}
	}
	return plain, boxed
}

// sandboxFigure measures an MCP stdio tools/call of the same tool served
// by two `toolhost serve` sessions, one sandboxed and one not, and reports
// the ratio sandboxed/unsandboxed (metric "after/unsandboxed").
func sandboxFigure(b *testing.B, pool string) {
	f := setup(b)
	plain, boxed := sandboxWorkspaces(b, f)
	v := f.variants[len(f.variants)-1] // the tree under test: "before" has no sandbox
	const params = `{"name":"b07_alpha","arguments":{"path":"a.txt"}}`
	names := []string{"unsandboxed", "sandboxed"}
	var fns []func() time.Duration
	for _, ws := range []string{plain, boxed} {
		v.run(b, ws, "call", "b07_alpha", "path=a.txt") // fails the benchmark if the call does
		s := startSession(b, ws, append(slices.Clone(v.env), "TOOLHOST_POOL_SIZE="+pool), v.bin, "serve")
		s.call(b, "tools/call", params) // starts the long-lived process, when pooled
		fns = append(fns, func() time.Duration { d, _ := s.call(b, "tools/call", params); return d })
	}
	m := measure(b, names, fns)
	b.ReportMetric(float64(m["sandboxed"])/float64(m["unsandboxed"]), "after/unsandboxed")
}

// BenchmarkSandboxCall is a sandboxed one-shot MCP tools/call against
// the same call unsandboxed, in the same run (goal ≤ 1.15×): what the
// preparation (rules, ruleset, private TMPDIR) and the confined start
// cost per call.
func BenchmarkSandboxCall(b *testing.B) { sandboxFigure(b, "0") }

// BenchmarkSandboxCallLongLived is the same with the sdk binary pooled as
// a long-lived process (goal ≤ 1.05×): the process is confined once, so
// a call costs what an unsandboxed one does.
func BenchmarkSandboxCallLongLived(b *testing.B) { sandboxFigure(b, "") }
