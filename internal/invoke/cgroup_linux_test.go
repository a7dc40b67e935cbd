package invoke

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/toolhost/toolhost/internal/invoke/faketool"
	"github.com/toolhost/toolhost/tool"
)

func init() {
	// escape HOW [stdin|hang] leaves a process behind that left its
	// process group, HOW being "setsid" (sleep in a new session), "double-
	// fork" (fork, setsid, fork: see "daemonize"), "renamed" (in a new
	// session, with another argv[0] and comm) or "noenv" (sleep in a new
	// session with an empty environment, so without the call's token). It
	// writes its own cgroup v2 path (the 0:: line of /proc/self/cgroup) to
	// $INVOKE_TEST_PGID_FILE.cgroup, then the process's pid to
	// $INVOKE_TEST_PGID_FILE, prints "started" and exits; with "stdin" it
	// first reads stdin to its end, with "hang" it sleeps.
	fakeTools["escape"] = func() int {
		file := os.Getenv(pgidFileEnv)
		cg, err := os.ReadFile("/proc/self/cgroup")
		if err == nil {
			err = os.WriteFile(file+".cgroup", cg, 0o644)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		var d *exec.Cmd
		switch os.Args[2] {
		case "setsid":
			d = exec.Command("sleep", "300")
		case "double-fork":
			if err := exec.Command(os.Args[0], "daemon-mid").Run(); err != nil { // writes the pid
				fmt.Fprintln(os.Stderr, err)
				return 2
			}
		case "renamed":
			d = exec.Command(os.Args[0], "renamed-sleep")
			d.Args[0] = "innocent"
		case "noenv":
			d = exec.Command("sleep", "300")
			d.Env = []string{}
		}
		if d != nil {
			d.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
			if err := d.Start(); err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 2
			}
			if os.Args[2] == "renamed" && !renamed(d.Process.Pid) {
				fmt.Fprintln(os.Stderr, "the daemon never renamed itself")
				return 2
			}
			if err := os.WriteFile(file, []byte(strconv.Itoa(d.Process.Pid)), 0o644); err != nil {
				return 2
			}
		}
		fmt.Println("started")
		switch {
		case len(os.Args) > 3 && os.Args[3] == "stdin":
			_, _ = io.Copy(io.Discard, os.Stdin)
		case len(os.Args) > 3 && os.Args[3] == "hang":
			time.Sleep(time.Hour)
		}
		return 0
	}
	// embed NAME... runs the fake tool NAME... with Run, as a program that
	// embeds the resolver does: without a subreaper. It prints what the
	// tool printed and exits with its status.
	fakeTools["embed"] = func() int {
		spec := &Spec{Command: append([]string{os.Args[0]}, os.Args[2:]...), Grace: 200 * time.Millisecond}
		res, err := Run(context.Background(), spec, request(tool.ActionRun, os.TempDir(), nil))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		os.Stdout.Write(res.Stdout)
		os.Stderr.Write(res.StderrTail)
		return res.ExitCode
	}
	// renamed-sleep names itself "innocent" (comm, as prctl PR_SET_NAME
	// does; argv[0] its parent chose) and sleeps.
	fakeTools["renamed-sleep"] = func() int {
		if err := os.WriteFile("/proc/self/comm", []byte("innocent"), 0); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		time.Sleep(time.Hour)
		return 0
	}
}

// renamed waits until process pid's comm and argv[0] are "innocent".
func renamed(pid int) bool {
	for range 500 {
		comm, _ := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid))
		argv, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		if string(comm) == "innocent\n" && strings.HasPrefix(string(argv), "innocent\x00") {
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return false
}

// contain sets how the test's calls are contained: "cgroup" (skipped
// where the host may not make per-call cgroups) or "token" (cgroups off:
// the process group and the token scan alone, as on such hosts).
func contain(t *testing.T, mode string) {
	t.Helper()
	prev := hostCgroup.Load()
	t.Cleanup(func() { hostCgroup.Store(prev) })
	switch h := cgroups(); mode {
	case "cgroup":
		if h.dir == "" {
			t.Skip("no per-call cgroups on this host: " + h.reason)
		}
	case "token":
		disableCgroups("off for the test")
	}
}

// checkCgroup checks where the fake tool ran, from the cgroup file it
// wrote: with "cgroup" in a leaf of this process, where no process is
// left (it is kept empty for a later call, or removed); with "token" in
// this process's own cgroup.
func checkCgroup(t *testing.T, file, mode string) {
	t.Helper()
	got, err := ownCgroup(file, "/proc/self/mountinfo")
	if err != nil {
		t.Fatal(err)
	}
	switch h := cgroups(); mode {
	case "cgroup":
		if filepath.Dir(got) != h.dir || !strings.HasPrefix(filepath.Base(got), h.prefix) {
			t.Fatalf("the tool ran in cgroup %s, want a leaf %s* of %s", got, h.prefix, h.dir)
		}
		if busy, err := dirPopulated(got); busy || err != nil && !errors.Is(err, syscall.ENOENT) {
			t.Errorf("processes are left in the call's cgroup %s: %v (%v)", got, cgroupPids(got), err)
		}
	case "token":
		own, err := ownCgroup("/proc/self/cgroup", "/proc/self/mountinfo")
		if err != nil {
			t.Fatal(err)
		}
		if got != own {
			t.Fatalf("the tool ran in cgroup %s, want the host's own %s", got, own)
		}
	}
}

// dirPopulated reports whether a process is in the cgroup dir (or below).
func dirPopulated(dir string) (bool, error) {
	buf, err := readAll(dir+"/cgroup.events", nil)
	return err == nil && eventsPopulated(buf), err
}

// escapes are the ways a process of a call leaves its process group.
// The token scan cannot find "noenv" (the process dropped the token):
// docs/protocol.md says so, and only cgroups are tested with it.
var escapes = []string{"setsid", "double-fork", "renamed", "noenv"}

// TestRunEndsEscaped: whatever a tool's process does to leave its
// process group (a new session, a double fork, a new name, an empty
// environment), it no longer runs when Run returns, and is reaped.
func TestRunEndsEscaped(t *testing.T) {
	for _, mode := range []string{"cgroup", "token"} {
		for _, how := range escapes {
			t.Run(mode+"/"+how, func(t *testing.T) {
				if mode == "token" && how == "noenv" {
					t.Skip("the token scan cannot find a process without the token")
				}
				contain(t, mode)
				file := filepath.Join(t.TempDir(), "pid")
				spec := fake(t, "escape", how)
				spec.Env = map[string]string{pgidFileEnv: file}
				res, err := Run(t.Context(), spec, request(tool.ActionRun, t.TempDir(), nil))
				if err != nil {
					t.Fatal(err)
				}
				if got := string(res.Stdout); got != "started\n" || res.ExitCode != 0 {
					t.Fatalf("exit %d, stdout %q, want started: %s", res.ExitCode, got, res.StderrTail)
				}
				pid := readPid(t, file)
				if state := procState(pid); state != "" && state != "Z" {
					t.Errorf("process %d still runs (state %s) after Run returned", pid, state)
				}
				waitPidGone(t, pid)
				checkCgroup(t, file+".cgroup", mode)
			})
		}
	}
}

// TestProcessEndsEscaped: a long-lived (pooled) process is retired with
// Close; whatever it left outside its process group ends with it, both
// when it exits at the end of its stdin and when it must be killed.
func TestProcessEndsEscaped(t *testing.T) {
	for _, mode := range []string{"cgroup", "token"} {
		for _, how := range escapes {
			for _, end := range []string{"stdin", "hang"} {
				t.Run(mode+"/"+how+"/"+end, func(t *testing.T) {
					if mode == "token" && how == "noenv" {
						t.Skip("the token scan cannot find a process without the token")
					}
					contain(t, mode)
					file := filepath.Join(t.TempDir(), "pid")
					spec := fake(t, "escape", how, end)
					spec.Env = map[string]string{pgidFileEnv: file}
					p, err := Start(spec, request(tool.ActionRun, t.TempDir(), nil), func([]byte) {})
					if err != nil {
						t.Fatal(err)
					}
					faketool.WaitWritten(t, file)
					pid := readPid(t, file)
					p.Close()
					select {
					case <-p.Done():
					case <-time.After(10 * time.Second):
						p.Kill()
						t.Fatal("the process was not done 10 s after Close")
					}
					waitPidGone(t, pid)
					checkCgroup(t, file+".cgroup", mode)
				})
			}
		}
	}
}

// TestStartContainedLeafGone: a leaf removed under the host (clone3 then
// fails with ENOENT) costs the call its cgroup, not its run, and leaves
// cgroups on for the next calls.
func TestStartContainedLeafGone(t *testing.T) {
	contain(t, "cgroup")
	l, err := cgroups().newLeaf()
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Rmdir(l.dir); err != nil {
		t.Fatal(err)
	}
	path := faketool.Exe(t)
	cmd, got, err := startContained(t.Context(), l, nil, func() *exec.Cmd {
		c := exec.Command(path, "exit-0")
		c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		return c
	})
	if err != nil {
		t.Fatalf("start without the cgroup failed: %v", err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	if got != nil {
		t.Errorf("leaf %s returned for a process started without it", got.dir)
	}
	if h := cgroups(); h.dir == "" {
		t.Errorf("cgroups turned off for a leaf removed under the host: %s", h.reason)
	}
}

func TestCgroupRefusal(t *testing.T) {
	tests := []struct {
		err            error
		retry, lasting bool
	}{
		{&fs.PathError{Op: "fork/exec", Path: "/bin/x", Err: syscall.ENOSYS}, true, true},     // no clone3, or a seccomp filter
		{&fs.PathError{Op: "fork/exec", Path: "/bin/x", Err: syscall.EACCES}, true, true},     // the host's cgroup is not writable
		{&fs.PathError{Op: "fork/exec", Path: "/bin/x", Err: syscall.EOPNOTSUPP}, true, true}, // not a cgroup v2
		{&fs.PathError{Op: "fork/exec", Path: "/bin/x", Err: syscall.EBUSY}, true, true},      // controllers enabled below the host's cgroup
		{&fs.PathError{Op: "fork/exec", Path: "/bin/x", Err: syscall.ENOENT}, true, false},    // the leaf was removed
		{&fs.PathError{Op: "fork/exec", Path: "/bin/x", Err: syscall.ENODEV}, true, false},
		{&fs.PathError{Op: "fork/exec", Path: "/bin/x", Err: syscall.ENOEXEC}, false, false}, // the exec's own
		{&fs.PathError{Op: "fork/exec", Path: "/bin/x", Err: syscall.ETXTBSY}, false, false},
	}
	for _, tt := range tests {
		retry, lasting := cgroupRefusal(tt.err)
		if retry != tt.retry || lasting != tt.lasting {
			t.Errorf("cgroupRefusal(%v) = %v, %v, want %v, %v", tt.err, retry, lasting, tt.retry, tt.lasting)
		}
	}
}

func TestOwnCgroup(t *testing.T) {
	const (
		hybrid  = "30 25 0:26 / /sys/fs/cgroup/unified rw,nosuid,nodev,noexec,relatime shared:10 - cgroup2 cgroup2 rw\n"
		unified = "29 23 0:25 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot\n"
		v1      = "33 25 0:29 / /sys/fs/cgroup/memory rw,nosuid,nodev,noexec,relatime shared:12 - cgroup cgroup rw,memory\n"
	)
	tests := []struct {
		name, cgroup, mountinfo string
		want, wantErr           string
	}{
		{"hybrid root", "4:memory:/x\n0::/\n", v1 + hybrid, "/sys/fs/cgroup/unified", ""},
		{"systemd user scope", "0::/user.slice/user-1000.slice/user@1000.service/app.slice/vte-spawn-1.scope\n", unified,
			"/sys/fs/cgroup/user.slice/user-1000.slice/user@1000.service/app.slice/vte-spawn-1.scope", ""},
		{"a mount of a subtree", "0::/docker/abc/sub\n", "40 30 0:30 /docker/abc /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n", "/sys/fs/cgroup/sub", ""},
		{"a mount point with a space", "0::/a\n", `40 30 0:30 / /mnt/cg\0402 rw - cgroup2 cgroup2 rw` + "\n", "/mnt/cg 2/a", ""},
		{"outside the mount", "0::/other\n", "40 30 0:30 /docker/abc /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n", "", "the host's cgroup /other is outside every cgroup2 mount"},
		{"a sibling's prefix", "0::/docker/abcdef\n", "40 30 0:30 /docker/abc /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n", "", "the host's cgroup /docker/abcdef is outside every cgroup2 mount"},
		{"cgroup v1 only", "4:memory:/x\n1:name=systemd:/\n", v1, "", "the host is in no cgroup v2 (a cgroup v1 system)"},
		{"cgroup2 not mounted", "0::/\n", v1, "", "cgroup2 is not mounted"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			cg, mi := filepath.Join(dir, "cgroup"), filepath.Join(dir, "mountinfo")
			if err := os.WriteFile(cg, []byte(tt.cgroup), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(mi, []byte(tt.mountinfo), 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := ownCgroup(cg, mi)
			gotErr := ""
			if err != nil {
				gotErr = err.Error()
			}
			if got != tt.want || gotErr != tt.wantErr {
				t.Errorf("ownCgroup = %q, %q; want %q, %q", got, gotErr, tt.want, tt.wantErr)
			}
		})
	}
}

// BenchmarkContain compares a whole Run of a tool that exits at once in
// a per-call cgroup with the same Run without one (process group and
// token scan alone), interleaved in one loop so that both see the same
// machine; it reports the median of each and their ratio. The host is a subreaper, as
// the toolhost command is.
func BenchmarkContain(b *testing.B) {
	if h := cgroups(); h.dir == "" {
		b.Skip("no per-call cgroups on this host: " + h.reason)
	}
	path, err := exec.LookPath("true")
	if err != nil {
		b.Skip("no true binary")
	}
	spec := &Spec{Command: []string{path}}
	req := request(tool.ActionRun, b.TempDir(), nil)
	on := hostCgroup.Load()
	off := &cgroupHost{reason: "off for the benchmark"}
	defer hostCgroup.Store(on)
	run := func(h *cgroupHost) time.Duration {
		hostCgroup.Store(h)
		t0 := time.Now()
		if _, err := Run(b.Context(), spec, req); err != nil {
			b.Fatal(err)
		}
		return time.Since(t0)
	}
	var with, without []time.Duration
	for i := 0; b.Loop(); i++ { // alternate which goes first
		if i%2 == 0 {
			with = append(with, run(on))
			without = append(without, run(off))
		} else {
			without = append(without, run(off))
			with = append(with, run(on))
		}
	}
	mw, mo := median(with), median(without)
	b.ReportMetric(float64(mw.Nanoseconds()), "cgroup-median-ns")
	b.ReportMetric(float64(mo.Nanoseconds()), "token-median-ns")
	b.ReportMetric(float64(mw)/float64(mo), "ratio")
}

// median returns the median of d, which it sorts.
func median(d []time.Duration) time.Duration {
	slices.Sort(d)
	return d[len(d)/2]
}

// BenchmarkLeaf measures what a per-call cgroup adds to a call that
// leaves nothing behind, besides clone3 itself: "make" makes a leaf,
// opens it and removes it; "reuse" takes a kept one, checks it is empty
// and keeps it again, as Run does.
func BenchmarkLeaf(b *testing.B) {
	h := cgroups()
	if h.dir == "" {
		b.Skip("no per-call cgroups on this host: " + h.reason)
	}
	b.Run("make", func(b *testing.B) {
		for b.Loop() {
			l, err := h.newLeaf()
			if err != nil {
				b.Fatal(err)
			}
			l.remove()
		}
	})
	b.Run("reuse", func(b *testing.B) {
		for b.Loop() {
			l, err := h.get()
			if err != nil {
				b.Fatal(err)
			}
			if busy, err := l.populated(); busy || err != nil {
				b.Fatal(busy, err)
			}
			h.put(l)
		}
	})
}

// TestRunAfterKilledLeaf: a call whose cgroup had to be killed does not
// hand it to the next call, where the kernel would kill the new process
// at birth (Linux 6.18); the next calls run to their end.
func TestRunAfterKilledLeaf(t *testing.T) {
	contain(t, "cgroup")
	for i := range 3 {
		file := filepath.Join(t.TempDir(), "pid")
		spec := fake(t, "escape", "setsid")
		spec.Env = map[string]string{pgidFileEnv: file}
		res, err := Run(t.Context(), spec, request(tool.ActionRun, t.TempDir(), nil))
		if err != nil {
			t.Fatal(err)
		}
		if res.ExitCode != 0 || string(res.Stdout) != "started\n" {
			t.Fatalf("call %d: %s, stdout %q, want exit status 0 and started", i, res.Status, res.Stdout)
		}
		waitPidGone(t, readPid(t, file))
	}
}

// TestLeafPopulated: a leaf's cgroup.events, kept open and read again
// from its start, follows the processes in it: empty, one, killed.
func TestLeafPopulated(t *testing.T) {
	contain(t, "cgroup")
	l, err := cgroups().newLeaf()
	if err != nil {
		t.Fatal(err)
	}
	defer l.remove()
	check := func(want bool) {
		t.Helper()
		if got, err := l.populated(); got != want || err != nil {
			t.Fatalf("populated = %v, %v; want %v", got, err, want)
		}
	}
	check(false)
	cmd := exec.Command("sleep", "300")
	cmd.SysProcAttr = &syscall.SysProcAttr{}
	l.attach(cmd)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	check(true)
	l.kill()
	_ = cmd.Wait()
	l.waitEmpty(time.Now().Add(3 * time.Second))
	check(false)
}

// TestRunEndsEscapedEmbedded: a program that embeds the resolver is no
// subreaper, and with a cgroup Run skips the environ scan: the cgroup
// alone ends a daemon that cleared its environment (init, or here the
// test process, a subreaper, reaps it). The program runs beside the test
// process, or inside a call's cgroup, as on a desktop where the host's
// own cgroup is a systemd scope holding processes: its calls' cgroups are
// made below it.
func TestRunEndsEscapedEmbedded(t *testing.T) {
	for _, where := range []string{"beside", "inside"} {
		t.Run(where, func(t *testing.T) {
			contain(t, "cgroup")
			file := filepath.Join(t.TempDir(), "pid")
			env := map[string]string{pgidFileEnv: file}
			var out []byte
			var embedder int
			if where == "beside" {
				cmd := exec.Command(self(t), "embed", "escape", "noenv")
				cmd.Env = append(os.Environ(), pgidFileEnv+"="+file)
				var err error
				if out, err = cmd.Output(); err != nil {
					t.Fatalf("%v: %s", err, out)
				}
				embedder = cmd.Process.Pid
			} else {
				spec := fake(t, "embed", "escape", "noenv")
				spec.Env = env
				res, err := Run(t.Context(), spec, request(tool.ActionRun, t.TempDir(), nil))
				if err != nil {
					t.Fatal(err)
				}
				out = res.Stdout
			}
			if string(out) != "started\n" {
				t.Fatalf("stdout %q, want started", out)
			}
			pid := readPid(t, file)
			if state := procState(pid); state != "" && state != "Z" {
				t.Errorf("process %d still runs (state %s) after the embedder's Run returned", pid, state)
			}
			got, err := ownCgroup(file+".cgroup", "/proc/self/mountinfo")
			if err != nil {
				t.Fatal(err)
			}
			h := cgroups()
			parent := filepath.Dir(got)
			if where == "beside" && (parent != h.dir || !strings.HasPrefix(filepath.Base(got), leafPrefix(pidNamespace(), embedder))) ||
				where == "inside" && (filepath.Dir(parent) != h.dir || !strings.HasPrefix(filepath.Base(parent), h.prefix)) {
				t.Errorf("the tool ran in cgroup %s, want a leaf of the embedder's in %s", got, h.dir)
			}
			_, _ = syscall.Wait4(pid, nil, syscall.WNOHANG, nil) // the orphan came back to this process, a subreaper
		})
	}
}

// TestRemoveCgroup: a call's cgroup in which the tool made cgroups of its
// own (a toolhost run as a tool) is removed with them.
func TestRemoveCgroup(t *testing.T) {
	contain(t, "cgroup")
	l, err := cgroups().newLeaf()
	if err != nil {
		t.Fatal(err)
	}
	for _, sub := range []string{"toolhost-1-1", "toolhost-1-2", "toolhost-1-2/inner"} {
		if err := os.Mkdir(filepath.Join(l.dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	l.remove()
	if _, err := os.Stat(l.dir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("cgroup %s left: %v", l.dir, err)
	}
}

// TestStandardCgroupDir: where cgroup2 is mounted in a usual place, the
// host's cgroup found there without mountinfo is the one mountinfo names.
func TestStandardCgroupDir(t *testing.T) {
	path, err := cgroupPath("/proc/self/cgroup")
	if err != nil {
		t.Skip("no cgroup v2 here: " + err.Error())
	}
	got, ok := standardCgroupDir(path)
	if !ok {
		t.Skip("cgroup2 is not mounted in a usual place here")
	}
	want, err := ownCgroup("/proc/self/cgroup", "/proc/self/mountinfo")
	if err != nil || got != want {
		t.Errorf("standardCgroupDir(%q) = %s, want %s (%v)", path, got, want, err)
	}
}
