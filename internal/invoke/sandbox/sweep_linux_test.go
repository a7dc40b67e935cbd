package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// deadPid returns the pid of a process that has exited and been reaped.
func deadPid(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

func TestSweepTemp(t *testing.T) {
	ns := hostNS()
	if ns == 0 {
		t.Skip("/proc/self/ns/pid cannot be read: no sweep here")
	}
	dead, live := deadPid(t), os.Getpid()
	name := func(ns uint64, pid int, r string) string {
		return tempPrefix + strconv.FormatUint(ns, 10) + "-" + strconv.Itoa(pid) + "-" + r
	}
	tests := []struct {
		name    string
		make    func(t *testing.T, parent, target string) string // makes an entry, returns its name
		removed bool
	}{
		{"a dead host's directory", func(t *testing.T, parent, _ string) string {
			n := name(ns, dead, "1")
			mkdir(t, filepath.Join(parent, n))
			if err := os.WriteFile(filepath.Join(parent, n, "left"), []byte("x"), 0o600); err != nil {
				t.Fatal(err)
			}
			return n
		}, true},
		{"a live host's directory", func(t *testing.T, parent, _ string) string {
			n := name(ns, live, "2")
			mkdir(t, filepath.Join(parent, n))
			return n
		}, false},
		{"a symlink named like a dead host's directory", func(t *testing.T, parent, target string) string {
			n := name(ns, dead, "3")
			if err := os.Symlink(target, filepath.Join(parent, n)); err != nil {
				t.Fatal(err)
			}
			return n
		}, false},
		{"a file named like a dead host's directory", func(t *testing.T, parent, _ string) string {
			n := name(ns, dead, "4")
			if err := os.WriteFile(filepath.Join(parent, n), nil, 0o600); err != nil {
				t.Fatal(err)
			}
			return n
		}, false},
		{"another user's directory", func(t *testing.T, parent, _ string) string {
			if os.Geteuid() != 0 {
				t.Skip("chown needs root")
			}
			n := name(ns, dead, "5")
			mkdir(t, filepath.Join(parent, n))
			if err := os.Chown(filepath.Join(parent, n), 65534, 65534); err != nil {
				t.Fatal(err)
			}
			return n
		}, false},
		{"a dead pid of another pid namespace", func(t *testing.T, parent, _ string) string {
			n := name(ns+1, dead, "6")
			mkdir(t, filepath.Join(parent, n))
			return n
		}, false},
		{"the older form without a pid, made just now (sweep_old_linux_test.go)", func(t *testing.T, parent, _ string) string {
			n := tempPrefix + strconv.Itoa(dead)
			mkdir(t, filepath.Join(parent, n))
			return n
		}, false},
		{"an unparsable pid", func(t *testing.T, parent, _ string) string {
			n := tempPrefix + strconv.FormatUint(ns, 10) + "-x" + strconv.Itoa(dead) + "-7"
			mkdir(t, filepath.Join(parent, n))
			return n
		}, false},
		{"another prefix", func(t *testing.T, parent, _ string) string {
			n := "other-" + name(ns, dead, "8")
			mkdir(t, filepath.Join(parent, n))
			return n
		}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parent, target := t.TempDir(), t.TempDir()
			keep := filepath.Join(target, "keep")
			if err := os.WriteFile(keep, []byte("mine"), 0o600); err != nil {
				t.Fatal(err)
			}
			n := tt.make(t, parent, target)
			want := 0
			if tt.removed {
				want = 1
			}
			if got := sweepTemp(parent, ns, os.Geteuid()); got != want {
				t.Errorf("sweepTemp removed %d, want %d", got, want)
			}
			_, err := os.Lstat(filepath.Join(parent, n))
			if gone := os.IsNotExist(err); gone != tt.removed {
				t.Errorf("%s: removed %v, want %v (Lstat: %v)", n, gone, tt.removed, err)
			}
			if b, err := os.ReadFile(keep); err != nil || string(b) != "mine" {
				t.Errorf("the symlink's target changed: %q, %v", b, err)
			}
		})
	}
}

// TestSweepTempBounded: one sweep removes at most sweepRemove
// directories; the next removes the rest.
func TestSweepTempBounded(t *testing.T) {
	ns := hostNS()
	if ns == 0 {
		t.Skip("/proc/self/ns/pid cannot be read: no sweep here")
	}
	parent, dead := t.TempDir(), deadPid(t)
	for i := range sweepRemove + 3 {
		mkdir(t, filepath.Join(parent, tempPrefix+strconv.FormatUint(ns, 10)+"-"+strconv.Itoa(dead)+"-"+strconv.Itoa(i)))
	}
	if got := sweepTemp(parent, ns, os.Geteuid()); got != sweepRemove {
		t.Errorf("first sweep removed %d, want %d", got, sweepRemove)
	}
	if got := sweepTemp(parent, ns, os.Geteuid()); got != 3 {
		t.Errorf("second sweep removed %d, want 3", got)
	}
}

// TestSweepOncePerProcess: privateTemp names its directory after the
// host's namespace and pid, and however many directories are made the
// sweep starts once.
func TestSweepOncePerProcess(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	for range 3 {
		d, err := privateTemp()
		if err != nil {
			t.Fatal(err)
		}
		want := tempPrefix + strconv.FormatUint(hostNS(), 10) + "-" + strconv.Itoa(os.Getpid()) + "-"
		if !strings.HasPrefix(filepath.Base(d), want) {
			t.Errorf("private directory %s, want a name starting %s", d, want)
		}
		removeTemp(d)
		sweepTempOnce(filepath.Dir(d))
	}
	if sweepRuns != 1 {
		t.Errorf("sweeps started: %d, want 1", sweepRuns)
	}
}

func mkdir(t *testing.T, p string) {
	t.Helper()
	if err := os.Mkdir(p, 0o700); err != nil {
		t.Fatal(err)
	}
}

// TestSweepFreshProcess: in a new process, the first private directory
// starts the sweep of its parent, which removes a dead host's directory
// and keeps its own.
func TestSweepFreshProcess(t *testing.T) {
	if os.Getenv("TOOLHOST_SWEEP_HELPER") == "1" {
		d, err := privateTemp()
		if err != nil {
			t.Fatal(err)
		}
		dead := filepath.Join(filepath.Dir(d), os.Getenv("TOOLHOST_SWEEP_DEAD"))
		for range 500 { // the sweep runs in the background: wait for it, 5 s at most
			if _, err := os.Lstat(dead); os.IsNotExist(err) {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		if _, err := os.Lstat(dead); !os.IsNotExist(err) {
			t.Fatalf("%s not swept: %v", dead, err)
		}
		if _, err := os.Lstat(d); err != nil {
			t.Fatalf("own directory: %v", err)
		}
		return
	}
	ns := hostNS()
	if ns == 0 {
		t.Skip("/proc/self/ns/pid cannot be read: no sweep here")
	}
	parent := t.TempDir()
	dead := tempPrefix + strconv.FormatUint(ns, 10) + "-" + strconv.Itoa(deadPid(t)) + "-1"
	mkdir(t, filepath.Join(parent, dead))
	cmd := exec.Command(os.Args[0], "-test.run=^TestSweepFreshProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), "TOOLHOST_SWEEP_HELPER=1", "TOOLHOST_SWEEP_DEAD="+dead, "XDG_RUNTIME_DIR="+parent)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("helper: %v\n%s", err, out)
	}
	if _, err := os.Lstat(filepath.Join(parent, dead)); !os.IsNotExist(err) {
		t.Errorf("%s not swept: %v", dead, err)
	}
}
