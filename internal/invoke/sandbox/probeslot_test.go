package sandbox_test

import (
	"os"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/internal/invoke/sandbox"
)

// TestProbeTempKept: a read-all probe's TMPDIR is empty whatever the probe
// before it did. A directory a probe left something in is removed, never
// given to the next probe. One left empty may be: the next probe of the
// host then gets the same one (when the host runs calls in cgroups, which
// prove the probe's processes gone). ReleaseProbeSlots removes the kept
// ones.
func TestProbeTempKept(t *testing.T) {
	needLandlock(t)
	w := newWorld(t)
	probe := (*sandbox.Policy)(nil).Probe()
	tmpdir := func(args ...string) (dir string, names []string) {
		t.Helper()
		res, _, err := w.run(t, probe, "tmpdir", args...)
		if err != nil || res.ExitCode != 0 {
			t.Fatalf("tmpdir %v: %v, exit %d, stderr %q", args, err, res.ExitCode, res.StderrTail)
		}
		lines := strings.Split(strings.TrimSpace(string(res.Stdout)), "\n")
		return lines[0], lines[1:]
	}
	first, names := tmpdir()
	if len(names) != 0 {
		t.Fatalf("a fresh TMPDIR holds %v", names)
	}
	second, names := tmpdir("leave")
	if len(names) != 0 {
		t.Fatalf("the second probe's TMPDIR holds %v", names)
	}
	if _, err := os.Stat(second); !os.IsNotExist(err) {
		t.Fatalf("the TMPDIR a probe left a file in is still there (%v)", err)
	}
	third, names := tmpdir()
	if len(names) != 0 || third == second {
		t.Fatalf("the probe after one that left a file got %s holding %v (that one's was %s)", third, names, second)
	}
	kept := second == first // cgroups: the first probe's directory was kept
	if _, err := os.Stat(third); kept != (err == nil) {
		t.Fatalf("after the third probe, its TMPDIR kept %v, but the first probe's was given again: %v", err == nil, kept)
	}
	sandbox.ReleaseProbeSlots()
	if _, err := os.Stat(third); !os.IsNotExist(err) {
		t.Fatalf("ReleaseProbeSlots left %s (%v)", third, err)
	}
}
