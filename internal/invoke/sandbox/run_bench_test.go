package sandbox_test

import (
	"testing"

	"github.com/toolhost/toolhost/internal/invoke"
	"github.com/toolhost/toolhost/internal/invoke/sandbox"
	"github.com/toolhost/toolhost/tool"
)

// BenchmarkRun is one call of /bin/true through invoke.Run, unconfined,
// sandboxed (from a confined throwaway thread) and as a schema request
// of an entry that restricts nothing: the sandbox's whole cost per
// one-shot call, host and child.
func BenchmarkRun(b *testing.B) {
	root := b.TempDir()
	for _, c := range []struct {
		name string
		pol  *sandbox.Policy
	}{{"plain", nil}, {"sandboxed", &sandbox.Policy{Mode: sandbox.ModeOn}}, {"probe", (*sandbox.Policy)(nil).Probe()}} {
		b.Run(c.name, func(b *testing.B) {
			spec := &invoke.Spec{Command: []string{"/bin/true"}, Sandbox: c.pol}
			req := &tool.Request{Protocol: tool.Version, Context: tool.Context{Action: tool.ActionRun, Root: root}}
			for b.Loop() {
				if res, err := invoke.Run(b.Context(), spec, req); err != nil || res.ExitCode != 0 {
					b.Fatal(err, res)
				}
			}
		})
	}
}
