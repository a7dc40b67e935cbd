package trust

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestVerify(t *testing.T) {
	a, b, c := Sum([]byte("a")), Sum([]byte("b")), Sum([]byte("c"))
	trusted := map[string]string{"a.toml": a, "b.toml": b}
	tests := []struct {
		name  string
		files map[string]string
		want  string // "" trusted
	}{
		{"the same files", map[string]string{"a.toml": a, "b.toml": b}, ""},
		{"a changed file", map[string]string{"a.toml": a, "b.toml": c}, "workspace ROOT is not trusted: changed b.toml"},
		{"a new file", map[string]string{"a.toml": a, "b.toml": b, "c.toml": c}, "workspace ROOT is not trusted: new c.toml"},
		{"a removed file", map[string]string{"a.toml": a}, "workspace ROOT is not trusted: removed b.toml"},
		{"all three", map[string]string{"a.toml": c, "d.toml": a, "c.toml": b}, "workspace ROOT is not trusted: new c.toml, d.toml; changed a.toml; removed b.toml"},
	}
	s := &Store{Dir: filepath.Join(t.TempDir(), "trust")}
	root := t.TempDir()
	if _, err := s.Trust(root, trusted); err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := s.Verify(root, tt.files)
			got := ""
			if err != nil {
				got = strings.ReplaceAll(err.Error(), root, "ROOT")
				if !errors.Is(err, ErrUntrusted) {
					t.Errorf("errors.Is(%v, ErrUntrusted) = false", err)
				}
			}
			if got != tt.want {
				t.Errorf("Verify mismatch:\nwant %q\ngot  %q", tt.want, got)
			}
		})
	}
	t.Run("never trusted", func(t *testing.T) {
		other := t.TempDir()
		err := s.Verify(other, trusted)
		var e *Error
		if !errors.As(err, &e) || e.Differences() != "new a.toml, b.toml" || e.Cause != nil {
			t.Fatalf("Verify of another workspace = %v", err)
		}
	})
	t.Run("revoked", func(t *testing.T) {
		ok, err := s.Revoke(root)
		if !ok || err != nil {
			t.Fatalf("Revoke = %v, %v; want true, nil", ok, err)
		}
		if err := s.Verify(root, trusted); err == nil || err.Error() != "workspace "+root+" is not trusted: untrusted a.toml, b.toml" {
			t.Fatalf("Verify after Revoke = %v", err)
		}
		withC := map[string]string{"a.toml": trusted["a.toml"], "c.toml": Sum([]byte("c"))}
		if err := s.Verify(root, withC); err == nil || err.Error() != "workspace "+root+" is not trusted: untrusted a.toml; new c.toml" {
			t.Fatalf("Verify of a file added after Revoke = %v", err)
		}
		if ok, err := s.Revoke(root); ok || err != nil {
			t.Fatalf("second Revoke = %v, %v; want false, nil", ok, err)
		}
		if recs, err := s.List(); err != nil || len(recs) != 0 {
			t.Fatalf("List after Revoke = %v, %v; want none", recs, err)
		}
		if _, err := s.Trust(root, trusted); err != nil {
			t.Fatal(err)
		}
		if err := s.Verify(root, trusted); err != nil {
			t.Fatalf("Verify after trusting again = %v", err)
		}
	})
}

// TestSymlinkedRoot: a workspace reached through a symbolic link is the
// same workspace.
func TestSymlinkedRoot(t *testing.T) {
	s := &Store{Dir: filepath.Join(t.TempDir(), "trust")}
	root := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(root, link); err != nil {
		t.Skip(err)
	}
	files := map[string]string{"tools.toml": Sum(nil)}
	if _, err := s.Trust(link, files); err != nil {
		t.Fatal(err)
	}
	if err := s.Verify(root, files); err != nil {
		t.Fatalf("Verify through the real path: %v", err)
	}
}

// TestRecordFile: records are owner-only, and a record others could have
// written is not believed.
func TestRecordFile(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("unix permissions")
	}
	dir := filepath.Join(t.TempDir(), "trust")
	s := &Store{Dir: dir}
	root := t.TempDir()
	files := map[string]string{"tools.toml": Sum([]byte("x"))}
	if _, err := s.Trust(root, files); err != nil {
		t.Fatal(err)
	}
	canon, _ := Canonical(root)
	path := s.path(canon)
	for p, want := range map[string]os.FileMode{dir: 0o700, path: 0o600} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s: mode %04o, want %04o", p, fi.Mode().Perm(), want)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("store holds %d files, want the one record (no temporary file left)", len(entries))
	}

	tests := []struct {
		name  string
		setup func(t *testing.T)
		want  string
	}{
		{"writable by others", func(t *testing.T) {
			if err := os.Chmod(path, 0o666); err != nil {
				t.Fatal(err)
			}
		}, "workspace " + root + " is not trusted: trust record " + path + " is writable by others (mode 0666); remove it and run toolhost trust again"},
		{"a symbolic link", func(t *testing.T) {
			target := filepath.Join(t.TempDir(), "rec.json")
			data, _ := os.ReadFile(path)
			os.WriteFile(target, data, 0o600)
			os.Remove(path)
			if err := os.Symlink(target, path); err != nil {
				t.Fatal(err)
			}
		}, "workspace " + root + " is not trusted: trust record " + path + ": too many levels of symbolic links; remove it and run toolhost trust again"},
		{"not JSON", func(t *testing.T) {
			os.WriteFile(path, []byte("{"), 0o600)
		}, "workspace " + root + " is not trusted: trust record " + path + " is not a trust record; remove it and run toolhost trust again"},
		{"for another root", func(t *testing.T) {
			os.WriteFile(path, []byte(`{"root":"/elsewhere","files":{"tools.toml":"`+files["tools.toml"]+`"}}`), 0o600)
		}, "workspace " + root + " is not trusted: trust record " + path + " is for /elsewhere, not " + canon + "; run toolhost trust again"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			os.Remove(path)
			if _, err := s.Trust(root, files); err != nil {
				t.Fatal(err)
			}
			if err := s.Verify(root, files); err != nil {
				t.Fatalf("before: %v", err)
			}
			tt.setup(t)
			err := s.Verify(root, files)
			if err == nil || err.Error() != tt.want {
				t.Fatalf("Verify mismatch:\nwant %s\ngot  %v", tt.want, err)
			}
			if !errors.Is(err, ErrUntrusted) {
				t.Errorf("errors.Is(%v, ErrUntrusted) = false", err)
			}
		})
	}
}

func TestNoDir(t *testing.T) {
	s := &Store{}
	err := s.Verify(t.TempDir(), nil)
	if !errors.Is(err, ErrUntrusted) || !errors.Is(err, errNoDir) {
		t.Fatalf("Verify with no directory = %v", err)
	}
	if _, err := s.Trust(t.TempDir(), nil); err != errNoDir {
		t.Fatalf("Trust with no directory = %v", err)
	}
}

func TestList(t *testing.T) {
	s := &Store{Dir: filepath.Join(t.TempDir(), "trust")}
	if recs, err := s.List(); recs != nil || err != nil {
		t.Fatalf("List of a missing store = %v, %v", recs, err)
	}
	r1, r2 := t.TempDir(), t.TempDir()
	for _, r := range []string{r2, r1} {
		if _, err := s.Trust(r, map[string]string{"tools.toml": Sum([]byte(r))}); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(s.Dir, "junk.json"), []byte("{}"), 0o600)
	recs, err := s.List()
	if len(recs) != 2 || recs[0].Root > recs[1].Root {
		t.Fatalf("List = %v, want the two records sorted", recs)
	}
	want := "trust record " + filepath.Join(s.Dir, "junk.json") + " is not a trust record; remove it and run toolhost trust again"
	if err == nil || err.Error() != want {
		t.Fatalf("List error:\nwant %s\ngot  %v", want, err)
	}
}
