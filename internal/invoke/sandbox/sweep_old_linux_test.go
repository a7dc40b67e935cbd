package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

func TestOldForm(t *testing.T) {
	for name, want := range map[string]bool{
		"toolhost-call-1003078064":   true,
		"toolhost-call-7":            true,
		"toolhost-call-":             false,
		"toolhost-call-12a":          false,
		"toolhost-call-4026-123-456": false, // the new form
		"toolhost-call--1":           false,
		"other-call-123":             false,
		"toolhost-call-１２":           false, // not ASCII digits
	} {
		if got := oldForm(name); got != want {
			t.Errorf("oldForm(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestMentions(t *testing.T) {
	for _, tc := range []struct {
		s, name string
		want    bool
	}{
		{"TMPDIR=/dev/shm/toolhost-call-12\x00HOME=/root", "toolhost-call-12", true},
		{"/dev/shm/toolhost-call-12/sub", "toolhost-call-12", true},
		{"/dev/shm/toolhost-call-12", "toolhost-call-12", true},
		{"/dev/shm/toolhost-call-123", "toolhost-call-12", false},
		{"/dev/shm/toolhost-call-123 /dev/shm/toolhost-call-12 (deleted)", "toolhost-call-12", true},
		{"", "toolhost-call-12", false},
	} {
		if got := mentions(tc.s, tc.name); got != tc.want {
			t.Errorf("mentions(%q, %q) = %v, want %v", tc.s, tc.name, got, tc.want)
		}
	}
}

// background starts sleep 60 as a process of this user that refers to
// dir as set up by how, and kills it when the test ends.
func background(t *testing.T, how func(*exec.Cmd)) {
	t.Helper()
	cmd := exec.Command("sleep", "60")
	how(cmd)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	// wait until the exec happened: /proc then shows sleep's own state
	for range 500 {
		if b, err := os.ReadFile("/proc/" + strconv.Itoa(cmd.Process.Pid) + "/comm"); err == nil && string(b) == "sleep\n" {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("sleep did not start")
}

// TestSweepOld: an older-form directory (toolhost-call-DIGITS) is removed
// only if it is a real directory of this user, nothing in it changed for
// oldTempAge, and no process refers to it; anything else stays, and a
// symlink's target is never touched.
func TestSweepOld(t *testing.T) {
	later := time.Now().Add(oldTempAge + time.Hour) // every entry just made is stale then
	tests := []struct {
		name    string
		now     time.Time
		make    func(t *testing.T, dir, target string) // makes the entry dir
		removed bool
	}{
		{"stale, with files in it", later, func(t *testing.T, dir, _ string) {
			mkdir(t, dir)
			mkdir(t, filepath.Join(dir, "sub"))
			write(t, filepath.Join(dir, "sub", "left"))
			if err := os.Symlink("/etc/passwd", filepath.Join(dir, "link")); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"recent", time.Now(), func(t *testing.T, dir, _ string) {
			mkdir(t, dir)
		}, false},
		{"a file in it changed within the age", later, func(t *testing.T, dir, _ string) {
			mkdir(t, dir)
			write(t, filepath.Join(dir, "busy"))
			if err := os.Chtimes(filepath.Join(dir, "busy"), later, later.Add(-time.Minute)); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"more entries than a sweep walks", later, func(t *testing.T, dir, _ string) {
			mkdir(t, dir)
			for i := range oldTempEntries {
				write(t, filepath.Join(dir, strconv.Itoa(i)))
			}
		}, false},
		{"the TMPDIR of a live process", later, func(t *testing.T, dir, _ string) {
			mkdir(t, dir)
			background(t, func(c *exec.Cmd) { c.Env = append(os.Environ(), "TMPDIR="+dir) })
		}, false},
		{"the working directory of a live process", later, func(t *testing.T, dir, _ string) {
			mkdir(t, dir)
			mkdir(t, filepath.Join(dir, "sub"))
			background(t, func(c *exec.Cmd) { c.Dir = filepath.Join(dir, "sub") })
		}, false},
		{"a file a live process holds open", later, func(t *testing.T, dir, _ string) {
			mkdir(t, dir)
			write(t, filepath.Join(dir, "held"))
			f, err := os.Open(filepath.Join(dir, "held"))
			if err != nil {
				t.Fatal(err)
			}
			background(t, func(c *exec.Cmd) { c.ExtraFiles = []*os.File{f} })
			f.Close()
		}, false},
		{"a symlink to a stale directory", later, func(t *testing.T, dir, target string) {
			if err := os.Symlink(target, dir); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"a file", later, func(t *testing.T, dir, _ string) {
			write(t, dir)
		}, false},
		{"another user's", later, func(t *testing.T, dir, _ string) {
			if os.Geteuid() != 0 {
				t.Skip("chown needs root")
			}
			mkdir(t, dir)
			if err := os.Chown(dir, 65534, 65534); err != nil {
				t.Fatal(err)
			}
		}, false},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parent, target := t.TempDir(), t.TempDir()
			keep := filepath.Join(target, "keep")
			write(t, keep)
			name := tempPrefix + strconv.Itoa(4000000000+i) // an improbable number: no real directory's
			tt.make(t, filepath.Join(parent, name), target)
			want := 0
			if tt.removed {
				want = 1
			}
			if got := sweepOld(parent, []string{name}, os.Geteuid(), sweepRemove, tt.now); got != want {
				t.Errorf("sweepOld removed %d, want %d", got, want)
			}
			_, err := os.Lstat(filepath.Join(parent, name))
			if gone := os.IsNotExist(err); gone != tt.removed {
				t.Errorf("%s: removed %v, want %v (Lstat: %v)", name, gone, tt.removed, err)
			}
			if _, err := os.Stat(keep); err != nil {
				t.Errorf("the symlink's target changed: %v", err)
			}
			if _, err := os.Stat("/etc/passwd"); err != nil {
				t.Errorf("/etc/passwd: %v", err)
			}
		})
	}
}

// TestSweepOldBounded: sweepOld removes at most its limit, and sweepTemp
// passes it what its own removals left of sweepRemove; names of neither
// form are not sweepOld's.
func TestSweepOldBounded(t *testing.T) {
	parent := t.TempDir()
	var names []string
	for i := range 5 {
		names = append(names, tempPrefix+strconv.Itoa(4100000000+i))
		mkdir(t, filepath.Join(parent, names[i]))
	}
	later := time.Now().Add(oldTempAge + time.Hour)
	if got := sweepOld(parent, names, os.Geteuid(), 2, later); got != 2 {
		t.Errorf("first sweep removed %d, want 2", got)
	}
	if got := sweepOld(parent, names, os.Geteuid(), 0, later); got != 0 {
		t.Errorf("a sweep with no room left removed %d, want 0", got)
	}
	if got := sweepOld(parent, names, os.Geteuid(), sweepRemove, later); got != 3 {
		t.Errorf("second sweep removed %d, want 3", got)
	}
}

func write(t *testing.T, p string) {
	t.Helper()
	if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
}
