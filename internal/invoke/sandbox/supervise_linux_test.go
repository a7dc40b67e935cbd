package sandbox_test

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/toolhost/toolhost/internal/invoke"
	"github.com/toolhost/toolhost/internal/invoke/faketool"
	"github.com/toolhost/toolhost/internal/invoke/sandbox"
	"github.com/toolhost/toolhost/tool"
)

// supervisedWorld is newWorld with a pre-commit hook, a link to it from
// src, and the files of before (relative to the workspace).
func supervisedWorld(t *testing.T, before map[string]string) world {
	t.Helper()
	w := newWorld(t)
	if err := os.MkdirAll(filepath.Join(w.ws, ".git/hooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(w.ws, ".git/hooks/pre-commit"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../.git/hooks/pre-commit", filepath.Join(w.ws, "src/hook")); err != nil {
		t.Fatal(err)
	}
	for f, data := range before {
		if err := os.WriteFile(filepath.Join(w.ws, f), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return w
}

// TestSupervisedRoot: under the default profile a tool creates, replaces,
// reopens, renames and deletes entries directly in the workspace root,
// and makes directories there that it fills. .git and .config stay out
// of its reach, however it names them.
func TestSupervisedRoot(t *testing.T) {
	needLandlock(t)
	const denied = ": permission denied\n"
	tests := []struct {
		name   string
		before map[string]string // files made first
		op     []string          // the fs scenario's arguments; {ws} is the workspace
		stderr string            // "" for success
		want   map[string]string // files and their content afterwards ("" for a directory)
		absent []string
	}{
		{"create", nil, []string{"create", "notes.txt"}, "", map[string]string{"notes.txt": "created"}, nil},
		{"create by absolute path", nil, []string{"create", "{ws}/notes.txt"}, "", map[string]string{"notes.txt": "created"}, nil},
		{"replace by a rename", map[string]string{"notes.txt": "old"}, []string{"replace", "notes.txt"}, "", map[string]string{"notes.txt": "replaced"}, []string{"notes.txt.tmp"}},
		{"reopen to write", nil, []string{"reopen", "notes.txt"}, "", map[string]string{"notes.txt": "agained"}, nil},
		{"delete", map[string]string{"notes.txt": "old"}, []string{"delete", "notes.txt"}, "", nil, []string{"notes.txt"}},
		{"mkdir", nil, []string{"mkdir", "newdir"}, "", map[string]string{"newdir": ""}, nil},
		{"mkdir, then fill it", nil, []string{"mkdir-write", "newdir/sub/x.txt"}, "", map[string]string{"newdir/sub/x.txt": "nested"}, nil},
		{"rename in the root", map[string]string{"a.md": "a"}, []string{"rename", "a.md", "b.md"}, "", map[string]string{"b.md": "a"}, []string{"a.md"}},
		{"create through a descriptor of the root", nil, []string{"openat", ".", "notes.txt"}, "", map[string]string{"notes.txt": ""}, nil},
		{"exchange two entries of the root", map[string]string{"a.md": "a", "b.md": "b"}, []string{"exchange", "a.md", "b.md"}, "", map[string]string{"a.md": "b", "b.md": "a"}, nil},

		{"create in .git", nil, []string{"create", ".git/x"}, "open .git/x" + denied, nil, []string{".git/x"}},
		{"create in .git by dots", nil, []string{"create", "src/../.git/x"}, "open src/../.git/x" + denied, nil, []string{".git/x"}},
		{"create in .git through a new directory", nil, []string{"mkdir-then", "newdir", "newdir/../.git/x"}, "open newdir/../.git/x" + denied, map[string]string{"newdir": ""}, []string{".git/x"}},
		{"create in a new directory by dots", nil, []string{"mkdir-then", "newdir", "newdir/../notes.txt"}, "", map[string]string{"notes.txt": "then"}, nil},
		{"create through a descriptor of .git", nil, []string{"openat", ".git", "x"}, "openat .git x" + denied, nil, []string{".git/x"}},
		{"mkdir in .config/toolhost", nil, []string{"mkdir", ".config/toolhost/x"}, "mkdir .config/toolhost/x" + denied, nil, []string{".config/toolhost/x"}},
		{"rename over .git", map[string]string{"x.txt": "x"}, []string{"rename", "x.txt", ".git"}, "rename x.txt .git" + denied, map[string]string{".git/config": "[core]", "x.txt": "x"}, nil},
		{"rename over .GIT", map[string]string{"x.txt": "x"}, []string{"rename", "x.txt", ".GIT"}, "rename x.txt .GIT" + denied, map[string]string{"x.txt": "x"}, []string{".GIT"}},
		{"exchange with .git", map[string]string{"x.txt": "x"}, []string{"exchange", "x.txt", ".git"}, "exchange x.txt .git" + denied, map[string]string{".git/config": "[core]", "x.txt": "x"}, nil},
		{"rename .git away", nil, []string{"rename", ".git", "git-old"}, "rename .git git-old" + denied, map[string]string{".git/config": "[core]"}, []string{"git-old"}},
		{"rename over .config", map[string]string{"x.txt": "x"}, []string{"rename", "x.txt", ".config"}, "rename x.txt .config" + denied, map[string]string{".config/toolhost": "", "x.txt": "x"}, nil},
		{"rename from a subdirectory to the root", nil, []string{"rename", "src/a.txt", "a.txt"}, "rename src/a.txt a.txt" + denied, map[string]string{"src/a.txt": "a"}, []string{"a.txt"}},
		{"delete .git", nil, []string{"delete", ".git/config"}, "remove .git/config" + denied, map[string]string{".git/config": "[core]"}, nil},
		{"symlink in the root", nil, []string{"symlink", ".git/hooks", "hooks"}, "symlink .git/hooks hooks" + denied, nil, []string{"hooks"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := supervisedWorld(t, tt.before)
			args := make([]string, len(tt.op))
			for i, a := range tt.op {
				args[i] = strings.ReplaceAll(a, "{ws}", w.ws)
			}
			res, _, err := w.run(t, &sandbox.Policy{Mode: sandbox.ModeOn}, "fs", args...)
			if err != nil {
				t.Fatal(err)
			}
			if tt.stderr == "" && (res.ExitCode != 0 || string(res.Stdout) != "done") {
				t.Fatalf("refused: exit %d, stderr %q", res.ExitCode, res.StderrTail)
			}
			if tt.stderr != "" && (res.ExitCode != 1 || string(res.StderrTail) != tt.stderr) {
				t.Fatalf("got exit %d, stdout %q, stderr %q; want stderr %q", res.ExitCode, res.Stdout, res.StderrTail, tt.stderr)
			}
			for f, want := range tt.want {
				p := filepath.Join(w.ws, f)
				if want == "" {
					if _, err := os.Stat(p); err != nil {
						t.Errorf("%s: %v", f, err)
					}
					continue
				}
				if got, err := os.ReadFile(p); err != nil || string(got) != want {
					t.Errorf("%s = %q (%v), want %q", f, got, err, want)
				}
			}
			for _, f := range tt.absent {
				if _, err := os.Lstat(filepath.Join(w.ws, f)); !errors.Is(err, os.ErrNotExist) {
					t.Errorf("%s exists (%v)", f, err)
				}
			}
			if fi, err := os.Stat(filepath.Join(w.ws, ".git")); err != nil || !fi.IsDir() {
				t.Errorf(".git is gone: %v", err)
			}
		})
	}
}

// TestSupervisedDenialExplained: a move from a subdirectory into the
// root, which the supervisor does not make, is explained as such.
func TestSupervisedDenialExplained(t *testing.T) {
	needLandlock(t)
	tests := []struct {
		op        []string
		what, fix string
	}{
		{[]string{"rename", "src/a.txt", "a.txt"}, "create of a.txt",
			`the sandbox creates entries directly in "." for the tool by name, but makes no link there and moves nothing between "." and a directory below it, since ".git" below it may not be written: copy the file instead (docs/security.md, "Limits")`},
		{[]string{"mkdir", "{ws}/.config"}, "create of .config",
			`the sandbox never creates, renames or deletes ".config" in the workspace root for a tool, since it holds or is what the profile keeps read-only; make this change yourself (docs/security.md, "Limits")`},
	}
	for _, tt := range tests {
		w := supervisedWorld(t, nil)
		if err := os.RemoveAll(filepath.Join(w.ws, ".config")); err != nil {
			t.Fatal(err)
		}
		args := make([]string, len(tt.op))
		for i, a := range tt.op {
			args[i] = strings.ReplaceAll(a, "{ws}", w.ws)
		}
		res, spec, err := w.run(t, &sandbox.Policy{Mode: sandbox.ModeOn}, "fs", args...)
		if err != nil || res.ExitCode != 1 {
			t.Fatalf("%v: %v: exit %d, stderr %q", tt.op, err, res.ExitCode, res.StderrTail)
		}
		if d := invoke.Denied(spec, w.ws, res); d == nil || d.What != tt.what || d.Fix != tt.fix {
			t.Errorf("%v: denial = %+v, want %q / %q", tt.op, d, tt.what, tt.fix)
		}
	}
}

// TestSupervisedUmask: a file the host creates for the tool gets the
// tool's umask, not the host's.
func TestSupervisedUmask(t *testing.T) {
	needLandlock(t)
	w := supervisedWorld(t, nil)
	res, _, err := w.run(t, &sandbox.Policy{Mode: sandbox.ModeOn}, "fs", "create-private", "secret.txt")
	if err != nil || string(res.Stdout) != "done" {
		t.Fatalf("%v: exit %d, stderr %q", err, res.ExitCode, res.StderrTail)
	}
	if fi, err := os.Stat(filepath.Join(w.ws, "secret.txt")); err != nil || fi.Mode() != 0o600 {
		t.Fatalf("secret.txt: %v %v, want -rw-------", fi.Mode(), err)
	}
}

// TestSupervisedDirfdSwapped: a descriptor that another thread of the
// tool points at .git and at the root in turn never lets it create in
// .git. The host acts on its own descriptor of the root, by name.
func TestSupervisedDirfdSwapped(t *testing.T) {
	needLandlock(t)
	w := supervisedWorld(t, nil)
	res, _, err := w.run(t, &sandbox.Policy{Mode: sandbox.ModeOn}, "swap-dirfd", "300")
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("%v: exit %d, stderr %q", err, res.ExitCode, res.StderrTail)
	}
	if _, err := os.Lstat(filepath.Join(w.ws, ".git/swapped.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf(".git/swapped.txt exists (%v)", err)
	}
	got := string(res.Stdout)
	if got == "made 0" {
		t.Errorf("%s: nothing was made in the root, so the test could not fail", got)
	}
	t.Log(got, "of 300")
}

// TestSupervisedNameSwapped: a path that another thread of the tool
// rewrites between notes.txt and .git/x never lets it create in .git.
// The host reads the name once and acts on its copy.
func TestSupervisedNameSwapped(t *testing.T) {
	needLandlock(t)
	w := supervisedWorld(t, nil)
	res, _, err := w.run(t, &sandbox.Policy{Mode: sandbox.ModeOn}, "swap-name", "300")
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("%v: exit %d, stderr %q", err, res.ExitCode, res.StderrTail)
	}
	if _, err := os.Lstat(filepath.Join(w.ws, ".git/x")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf(".git/x exists (%v)", err)
	}
	got := string(res.Stdout)
	if got == "made 0" {
		t.Errorf("%s: nothing was made in the root, so the test could not fail", got)
	}
	t.Log(got, "of 300")
}

// TestSupervisedMode: a mode change is made only where the rule nearest
// above the file grants update. None reaches .git, .config/toolhost or
// a file outside the rules, by path, by a link or by a descriptor.
func TestSupervisedMode(t *testing.T) {
	needLandlock(t)
	const eperm = ": operation not permitted\n"
	tests := []struct {
		name   string
		op     []string // {home} is the temporary HOME
		stderr string
		file   string // relative to the workspace, or {home}
		mode   os.FileMode
	}{
		{"chmod 000 .git", []string{"chmod", "000", ".git"}, "chmod .git" + eperm, ".git", os.ModeDir | 0o755},
		{"chmod -x a hook", []string{"chmod", "644", ".git/hooks/pre-commit"}, "chmod .git/hooks/pre-commit" + eperm, ".git/hooks/pre-commit", 0o755},
		{"fchmod a descriptor into .git", []string{"fchmod", "644", ".git/hooks/pre-commit"}, "chmod .git/hooks/pre-commit" + eperm, ".git/hooks/pre-commit", 0o755},
		{"chmod through a link into .git", []string{"chmod", "644", "src/hook"}, "chmod src/hook" + eperm, ".git/hooks/pre-commit", 0o755},
		{"chmod .config/toolhost", []string{"chmod", "700", ".config/toolhost"}, "chmod .config/toolhost" + eperm, ".config/toolhost", os.ModeDir | 0o755},
		{"chmod outside the rules", []string{"chmod", "644", "{home}/.ssh/id_ed25519"}, "chmod {home}/.ssh/id_ed25519" + eperm, "{home}/.ssh/id_ed25519", 0o600},
		{"chmod 000 the root, which holds .git", []string{"chmod", "000", "."}, "chmod ." + eperm, ".", os.ModeDir | 0o755},
		{"chmod 000 .config, which holds toolhost", []string{"chmod", "000", ".config"}, "chmod .config" + eperm, ".config", os.ModeDir | 0o755},
		{"chmod +x in a subdirectory", []string{"chmod", "755", "src/a.txt"}, "", "src/a.txt", 0o755},
		{"fchmod in a subdirectory", []string{"fchmod", "640", "src/a.txt"}, "", "src/a.txt", 0o640},
		{"chmod /proc/self/fd/N is the tool's descriptor", []string{"chmod-procfd", "640", "src/a.txt"}, "", "src/a.txt", 0o640},
		{"chmod /proc/self/fd/N into .git", []string{"chmod-procfd", "644", ".git/hooks/pre-commit"}, "chmod /proc/self/fd/N" + eperm, ".git/hooks/pre-commit", 0o755},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := supervisedWorld(t, nil)
			fill := func(s string) string { return strings.ReplaceAll(s, "{home}", w.home) }
			args := make([]string, len(tt.op))
			for i, a := range tt.op {
				args[i] = fill(a)
			}
			res, _, err := w.run(t, &sandbox.Policy{Mode: sandbox.ModeOn}, "fs", args...)
			if err != nil {
				t.Fatal(err)
			}
			if tt.stderr == "" && (res.ExitCode != 0 || string(res.Stdout) != "done") {
				t.Fatalf("refused: exit %d, stderr %q", res.ExitCode, res.StderrTail)
			}
			if tt.stderr != "" && (res.ExitCode != 1 || string(res.StderrTail) != fill(tt.stderr)) {
				t.Fatalf("got exit %d, stdout %q, stderr %q; want stderr %q", res.ExitCode, res.Stdout, res.StderrTail, fill(tt.stderr))
			}
			file := fill(tt.file)
			if !filepath.IsAbs(file) {
				file = filepath.Join(w.ws, file)
			}
			if fi, err := os.Stat(file); err != nil || fi.Mode() != tt.mode {
				t.Errorf("%s is %v (%v), want %v", tt.file, fi.Mode(), err, tt.mode)
			}
		})
	}
}

// TestProbeChangesNoMode: a schema or format_arguments request changes
// no mode, whatever its entry grants: its rules grant no update.
func TestProbeChangesNoMode(t *testing.T) {
	needLandlock(t)
	for _, c := range []struct {
		pol  *sandbox.Policy
		file string
		mode os.FileMode
	}{
		{nil, ".git", os.ModeDir | 0o755},
		{nil, "src/a.txt", 0o600},
		{&sandbox.Policy{Mode: sandbox.ModeOn}, "src/a.txt", 0o600},
	} {
		w := supervisedWorld(t, nil)
		res, _, err := w.run(t, c.pol.Probe(), "fs", "chmod", "000", c.file)
		if err != nil {
			t.Fatal(err)
		}
		if want := "chmod " + c.file + ": operation not permitted\n"; res.ExitCode != 1 || string(res.StderrTail) != want {
			t.Errorf("%v %s: exit %d, stderr %q; want %q", c.pol, c.file, res.ExitCode, res.StderrTail, want)
		}
		if fi, err := os.Stat(filepath.Join(w.ws, c.file)); err != nil || fi.Mode() != c.mode {
			t.Errorf("%s is %v (%v), want %v", c.file, fi.Mode(), err, c.mode)
		}
	}
}

// TestSupervisorEnds: the supervisor's goroutine and descriptors end
// with the process, for one-shot runs and a long-lived process alike.
func TestSupervisorEnds(t *testing.T) {
	needLandlock(t)
	w := supervisedWorld(t, nil)
	pol := &sandbox.Policy{Mode: sandbox.ModeOn}
	if res, _, err := w.run(t, pol, "fs", "create", "warm.txt"); err != nil || res.ExitCode != 0 {
		t.Fatalf("%v %+v", err, res) // the runtime's own threads and descriptors, made once
	}
	fds, goroutines := openFDs(t), runtime.NumGoroutine()
	for i := range 5 {
		res, _, err := w.run(t, pol, "fs", "create", "n"+string(rune('0'+i))+".txt")
		if err != nil || res.ExitCode != 0 {
			t.Fatalf("%v: exit %d, stderr %q", err, res.ExitCode, res.StderrTail)
		}
	}
	spec := &invoke.Spec{
		Command: faketool.Command(t, "serve-lines"),
		Env:     map[string]string{faketool.Env: "1", "GORACE": os.Getenv("GORACE")},
		Sandbox: pol,
	}
	p, err := invoke.Start(spec, &tool.Request{Protocol: tool.Version, Context: tool.Context{Action: tool.ActionRun, Root: w.ws}}, func([]byte) {})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(openFDs(t), isListener) {
		t.Errorf("no supervisor for the long-lived process: %v", openFDs(t))
	}
	p.Close()
	<-p.Done()
	var gotFDs []string
	var gotG int
	for range 100 { // a goroutine leaving after it said it ended
		if gotFDs, gotG = openFDs(t), runtime.NumGoroutine(); len(gotFDs) <= len(fds) && !slices.ContainsFunc(gotFDs, isListener) && gotG <= goroutines {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Errorf("descriptors %d → %d (%v → %v), goroutines %d → %d", len(fds), len(gotFDs), fds, gotFDs, goroutines, gotG)
}

// isListener reports whether an entry of openFDs is a seccomp listener.
func isListener(fd string) bool { return strings.HasSuffix(fd, "anon_inode:seccomp notify") }

// openFDs lists the test process's descriptors and what they name.
func openFDs(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		target, _ := os.Readlink("/proc/self/fd/" + e.Name())
		out = append(out, e.Name()+"→"+target)
	}
	return out
}

// BenchmarkSupervisor is what the supervisor costs: a call of /bin/true
// (a filter installed, a goroutine started and stopped), and 1000 files
// created by one tool in a subdirectory (each create a round trip to the
// host that continues) and in the workspace root (each made by the
// host). Each with the supervisor and without it.
func BenchmarkSupervisor(b *testing.B) {
	w := world{home: b.TempDir()}
	w.ws = filepath.Join(w.home, "work")
	for _, d := range []string{"src", ".git", ".config/toolhost"} {
		if err := os.MkdirAll(filepath.Join(w.ws, d), 0o755); err != nil {
			b.Fatal(err)
		}
	}
	req := &tool.Request{Protocol: tool.Version, Context: tool.Context{Action: tool.ActionRun, Root: w.ws}}
	pol := &sandbox.Policy{Mode: sandbox.ModeOn}
	for _, c := range []struct {
		name string
		cmd  []string
	}{
		{"true", []string{"/bin/true"}},
		{"create-1000-in-src", faketool.Command(b, "fs", "create-many", "1000", "src")},
		{"create-1000-in-root", faketool.Command(b, "fs", "create-many", "1000", ".")},
	} {
		for _, on := range []bool{false, true} {
			name := c.name + "/without"
			if on {
				name = c.name + "/with"
			}
			b.Run(name, func(b *testing.B) {
				if c.name == "create-1000-in-root" && !on {
					b.Skip("refused without the supervisor")
				}
				defer sandbox.SetSupervisorForTest(on)()
				spec := &invoke.Spec{Command: c.cmd, Env: map[string]string{faketool.Env: "1"}, Sandbox: pol}
				for b.Loop() {
					if res, err := invoke.Run(b.Context(), spec, req); err != nil || res.ExitCode != 0 {
						b.Fatal(err, res.ExitCode, string(res.StderrTail))
					}
				}
			})
		}
	}
}
