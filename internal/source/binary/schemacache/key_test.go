package schemacache

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/toolhost/toolhost/internal/invoke"
)

func TestCacheKey(t *testing.T) {
	root := t.TempDir()
	bin := filepath.Join(root, "bin", "x")
	script := filepath.Join(root, "tool.py")
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		t.Fatal(err)
	}
	for p, content := range map[string]string{bin: "#!/bin/sh\n", script: "print(1)\n"} {
		if err := os.WriteFile(p, []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	key := func(t *testing.T, spec *invoke.Spec) Key {
		t.Helper()
		k, ok := StatKey(spec, root)
		if !ok {
			t.Fatalf("StatKey(%q) not ok", spec.Command)
		}
		if len(k) != 64 {
			t.Fatalf("key %q is not a hex sha256", k)
		}
		return k
	}
	base := key(t, &invoke.Spec{Command: []string{"bin/x", "tool.py"}})
	if again := key(t, &invoke.Spec{Command: []string{"bin/x", "tool.py"}}); again != base {
		t.Errorf("key not stable: %s then %s", base, again)
	}
	if abs := key(t, &invoke.Spec{Command: []string{bin, "tool.py"}}); abs == base {
		t.Error("argv as configured is not in the key")
	}

	touch := func(p string, content string) {
		t.Helper()
		if err := os.WriteFile(p, []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
		future := time.Now().Add(time.Hour)
		if err := os.Chtimes(p, future, future); err != nil {
			t.Fatal(err)
		}
	}
	// sameSizeAndTime rewrites p with content of the same size and puts its
	// modification time back, as cp -p, tar or rsync -t do; inPlace keeps
	// the inode, otherwise the new file is renamed over p.
	sameSizeAndTime := func(p, content string, inPlace bool) {
		t.Helper()
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if int64(len(content)) != fi.Size() {
			t.Fatalf("content of %d bytes for a file of %d", len(content), fi.Size())
		}
		time.Sleep(20 * time.Millisecond) // past the file system's timestamp granularity
		target := p
		if !inPlace {
			target = p + ".new"
		}
		if err := os.WriteFile(target, []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(target, fi.ModTime(), fi.ModTime()); err != nil {
			t.Fatal(err)
		}
		if !inPlace {
			if err := os.Rename(target, p); err != nil {
				t.Fatal(err)
			}
		}
		if after, _ := os.Stat(p); after.Size() != fi.Size() || !after.ModTime().Equal(fi.ModTime()) {
			t.Fatalf("size or mtime of %s moved", p)
		}
	}
	changes := []struct {
		name   string
		change func()
		spec   *invoke.Spec
	}{
		{"Env", func() {}, &invoke.Spec{Command: []string{"bin/x", "tool.py"}, Env: map[string]string{"A": "1"}}},
		{"ClearEnv", func() {}, &invoke.Spec{Command: []string{"bin/x", "tool.py"}, ClearEnv: true}},
		{"argv", func() {}, &invoke.Spec{Command: []string{"bin/x", "tool.py", "-v"}}},
		{"script edited", func() { touch(script, "print(2)\n") }, &invoke.Spec{Command: []string{"bin/x", "tool.py"}}},
		{"binary rebuilt", func() { touch(bin, "#!/bin/sh\n# v2\n") }, &invoke.Spec{Command: []string{"bin/x", "tool.py"}}},
		{"binary replaced, same size and mtime", func() { sameSizeAndTime(bin, "#!/bin/sh\n# v3\n", false) }, &invoke.Spec{Command: []string{"bin/x", "tool.py"}}},
		{"binary rewritten in place, same size and mtime", func() { sameSizeAndTime(bin, "#!/bin/sh\n# v4\n", true) }, &invoke.Spec{Command: []string{"bin/x", "tool.py"}}},
		{"script rewritten in place, same size and mtime", func() { sameSizeAndTime(script, "print(3)\n", true) }, &invoke.Spec{Command: []string{"bin/x", "tool.py"}}},
	}
	prev := base
	for _, c := range changes {
		c.change()
		k := key(t, c.spec)
		if k == prev || k == base {
			t.Errorf("%s: key did not change", c.name)
		}
		prev = k
	}
	if a, b := key(t, &invoke.Spec{Command: []string{"bin/x"}, Env: map[string]string{"A": "1", "B": "2"}}),
		key(t, &invoke.Spec{Command: []string{"bin/x"}, Env: map[string]string{"B": "2", "A": "1"}}); a != b {
		t.Error("key depends on map order")
	}

	// The working directory is part of the key.
	if err := os.Mkdir(filepath.Join(root, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if key(t, &invoke.Spec{Command: []string{bin}}) == key(t, &invoke.Spec{Command: []string{bin}, Dir: "sub"}) {
		t.Error("Dir: key did not change")
	}
	if key(t, &invoke.Spec{Command: []string{bin}, Dir: "sub"}) != key(t, &invoke.Spec{Command: []string{bin}, Dir: filepath.Join(root, "sub")}) {
		t.Error("relative and absolute Dir naming the same directory give different keys")
	}

	// A bare name resolves on the child's PATH.
	if _, ok := StatKey(&invoke.Spec{Command: []string{"x"}, Env: map[string]string{"PATH": filepath.Dir(bin)}}, root); !ok {
		t.Error("bare name on Env PATH not resolved")
	}

	untrusted := [][]string{
		{"go", "run", "./cmd/x"},
		{"/usr/local/go/bin/go", "run", "."},
		{"go", "tool", "x"},
		{"npx", "-y", "some-tool"},
		{"uv", "run", "tool.py"},
		{"uvx", "tool"},
		{"cargo", "run", "--release"},
		{"python3", "-m", "tool"},
		{"env", "A=1", "bin/x"},
		{"{{tool.name}}"},
		{"bin/missing"},
		{"tool.py-not-there"},
	}
	for _, argv := range untrusted {
		if k, ok := StatKey(&invoke.Spec{Command: argv}, root); ok {
			t.Errorf("StatKey(%q) = %s, true; want no key", argv, k)
		}
	}
	if _, ok := StatKey(&invoke.Spec{Command: []string{"bin/x"}, Shell: true}, root); ok {
		t.Error("Stat of a shell command gave a key")
	}
	if _, ok := StatKey(&invoke.Spec{}, root); ok {
		t.Error("Stat of an empty command gave a key")
	}
	// go build / go version are not launchers.
	if _, err := exec.LookPath("go"); err == nil {
		if _, ok := StatKey(&invoke.Spec{Command: []string{"go", "version"}}, root); !ok {
			t.Error("StatKey(go version) gave no key")
		}
	}
}
