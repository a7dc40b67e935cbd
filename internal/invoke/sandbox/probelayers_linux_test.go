package sandbox

import (
	"os"
	"runtime"
	"syscall"
	"testing"

	"github.com/toolhost/toolhost/tool"
)

// TestProbeLayers: the probe of an entry that restricts no path has one
// small layer of its own, which leaves reading alone. Another probe's own
// layer is enforced first, made for it, and the shared layer last, the
// same ruleset for the probes of two binaries that read the same. Each
// landlock_restrict_self copies the layers the thread already has, so the
// large shared one goes last.
func TestProbeLayers(t *testing.T) {
	if kernelABI() == 0 {
		t.Skip(noLandlock())
	}
	root := t.TempDir()
	l, err := Prepare((*Policy)(nil).Probe(), "/bin/true", root, os.Environ(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(l.Cleanup)
	if l.base == nil || l.rs != nil {
		t.Fatalf("no rules: layers %v, %v; want one of its own", l.base, l.rs)
	}
	yes := true
	p := (&Policy{Access: tool.Access{FS: []tool.AccessFS{{Path: "/", Read: &yes, Execute: &yes}}}}).Probe()
	var ls []*Launch
	for _, exe := range []string{"/bin/true", "/bin/false"} {
		l, err := Prepare(p, exe, root, os.Environ(), nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(l.Cleanup)
		if l.base == nil || l.rs == nil {
			t.Fatalf("%s: layers %v, %v; want two", exe, l.base, l.rs)
		}
		ls = append(ls, l)
	}
	// same reports whether two descriptors share one open file: the same
	// ruleset, duplicated.
	sysKcmp := map[string]uintptr{"amd64": 312, "arm64": 272}[runtime.GOARCH]
	if sysKcmp == 0 {
		t.Skip("kcmp's number is not known here")
	}
	same := func(a, b *os.File) bool {
		const kcmpFile = 0
		pid := uintptr(os.Getpid())
		r, _, e := syscall.Syscall6(sysKcmp, pid, pid, kcmpFile, a.Fd(), b.Fd(), 0)
		if e != 0 {
			t.Skipf("kcmp: %v", e)
		}
		return r == 0
	}
	if !same(ls[0].rs, ls[1].rs) {
		t.Error("the layers enforced last are two rulesets; want the shared one for both probes")
	}
	if same(ls[0].base, ls[1].base) {
		t.Error("the layers enforced first are one ruleset; want each probe's own")
	}
}
