package sandbox_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/internal/invoke"
	"github.com/toolhost/toolhost/internal/invoke/sandbox"
)

// TestProfileRootHoldsHome: with no workspace the root is the current
// directory, which is often ~ or / (where MCP clients start servers).
// The default profile's "workspace read-write" must not then grant the
// home directory: the key stays unreadable and nothing is written there.
func TestProfileRootHoldsHome(t *testing.T) {
	needLandlock(t)
	w := newWorld(t)
	for _, root := range []string{w.home, filepath.Dir(w.home), "/"} {
		t.Run(root, func(t *testing.T) {
			at := world{home: w.home, ws: root}
			res, spec, err := at.run(t, &sandbox.Policy{Mode: sandbox.ModeOn}, "read-file", filepath.Join(w.home, ".ssh/id_ed25519"))
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			if res.ExitCode != 1 || len(res.Stdout) != 0 || !strings.Contains(string(res.StderrTail), "permission denied") {
				t.Fatalf("the key was read: exit %d, stdout %q, stderr %q", res.ExitCode, res.Stdout, res.StderrTail)
			}
			const fix = `the workspace root holds the home directory: the default profile grants nothing there; run toolhost in a project directory, or give --root DIR (docs/security.md, "Limits")`
			if d := invoke.Denied(spec, root, res); d == nil || !strings.HasPrefix(d.What, "read of ") || !strings.HasSuffix(d.What, ".ssh/id_ed25519") || d.Fix != fix {
				t.Errorf("denial = %+v", d)
			}
			res, _, err = at.run(t, &sandbox.Policy{Mode: sandbox.ModeOn}, "update-file", filepath.Join(w.ws, "src/a.txt"))
			if err != nil || res.ExitCode != 1 {
				t.Fatalf("a file in the home directory was rewritten: %v, %+v", err, res)
			}
		})
	}
}
