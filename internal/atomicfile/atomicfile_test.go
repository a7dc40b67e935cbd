package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWrite(t *testing.T) {
	for _, tt := range []struct {
		name    string
		before  func(t *testing.T, path string) // what is at path first
		perm    fs.FileMode
		wantErr string // "" for none
	}{
		{name: "new file", perm: 0o600},
		{name: "replaced", perm: 0o644, before: func(t *testing.T, path string) {
			if err := os.WriteFile(path, []byte("old, longer than the new"), 0o600); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "a link is replaced, not followed", perm: 0o600, before: func(t *testing.T, path string) {
			target := filepath.Join(filepath.Dir(path), "target")
			if err := os.WriteFile(target, []byte("target"), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(target, path); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "a directory in the way", perm: 0o600, wantErr: "file exists", before: func(t *testing.T, path string) {
			if err := os.MkdirAll(filepath.Join(path, "x"), 0o700); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "config.toml")
			if tt.before != nil {
				tt.before(t, path)
			}
			err := Write(path, []byte("new"), tt.perm)
			if tt.wantErr != "" {
				if err == nil || !strings.HasPrefix(err.Error(), "write "+path+": ") || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want write %s: …%s", err, path, tt.wantErr)
				}
			} else if err != nil {
				t.Fatal(err)
			} else {
				fi, err := os.Lstat(path)
				if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm() != tt.perm {
					t.Fatalf("%s: %v, %v; want a regular file of mode %v", path, fi.Mode(), err, tt.perm)
				}
				if data, _ := os.ReadFile(path); string(data) != "new" {
					t.Errorf("content %q, want %q", data, "new")
				}
				if data, err := os.ReadFile(filepath.Join(dir, "target")); err == nil && string(data) != "target" {
					t.Errorf("the link's target was written: %q", data)
				}
			}
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				if strings.HasSuffix(e.Name(), ".tmp") {
					t.Errorf("temporary file %s left", e.Name())
				}
			}
		})
	}
}

func TestWriteNoDirectory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "missing", "f")
	if err := Write(path, nil, 0o600); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("err = %v, want fs.ErrNotExist", err)
	}
}
