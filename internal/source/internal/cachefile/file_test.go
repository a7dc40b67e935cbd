//go:build unix

package cachefile

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestRead: only a regular file of at most the limit is read; a symlink,
// a FIFO, a directory and a larger file are refused without blocking.
func TestRead(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good")
	if err := os.WriteFile(good, []byte("data"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		make  func(p string) error
		limit int64
		want  error // nil: reads "data"
	}{
		{"regular", func(p string) error { return os.WriteFile(p, []byte("data"), 0o600) }, 4, nil},
		{"too large", func(p string) error { return os.WriteFile(p, []byte("data!"), 0o600) }, 4, ErrFile},
		{"symlink to a good file", func(p string) error { return os.Symlink(good, p) }, 4, syscall.ELOOP},
		{"fifo", func(p string) error { return syscall.Mkfifo(p, 0o600) }, 4, ErrFile},
		{"directory", func(p string) error { return os.Mkdir(p, 0o700) }, 4, ErrFile},
		{"missing", func(string) error { return nil }, 4, fs.ErrNotExist},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "f")
			if err := tt.make(p); err != nil {
				t.Fatal(err)
			}
			data, fi, err := Read(p, tt.limit)
			if tt.want != nil {
				if !errors.Is(err, tt.want) {
					t.Fatalf("Read = %q, %v; want error %v", data, err, tt.want)
				}
				return
			}
			if err != nil || string(data) != "data" || fi.Size() != 4 {
				t.Fatalf("Read = %q, %v, %v; want \"data\" of size 4", data, fi, err)
			}
		})
	}
}

// TestWrite: a file is written 0600 in a directory made 0700, replaces
// the old file or a directory in its place, and leaves no temporary
// file; a directory that is a symlink is not written into.
func TestWrite(t *testing.T) {
	top := t.TempDir()
	dir := filepath.Join(top, "sub")
	path := filepath.Join(dir, "f")
	for _, data := range []string{"one", "two, longer"} {
		fi, err := Write(dir, path, []byte(data))
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(path); string(got) != data || fi.Size() != int64(len(data)) {
			t.Errorf("file holds %q (stat size %d), want %q", got, fi.Size(), data)
		}
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("file mode %v, want 0600", fi.Mode().Perm())
	}
	if fi, _ := os.Stat(dir); fi.Mode().Perm() != 0o700 {
		t.Errorf("directory mode %v, want 0700", fi.Mode().Perm())
	}
	os.Remove(path)
	if err := os.Mkdir(path, 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := WriteSync(dir, path, []byte("three")); err != nil {
		t.Fatalf("Write over a directory: %v", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "three" {
		t.Errorf("file holds %q, want three", got)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("directory holds %d entries, want the file alone", len(entries))
	}
	link := filepath.Join(top, "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	if _, err := Write(link, filepath.Join(link, "g"), []byte("x")); !errors.Is(err, ErrDir) {
		t.Errorf("Write into a symlinked directory = %v, want ErrDir", err)
	}
}

// TestSeal: what Seal frames unseals; another magic, another version, a
// changed byte or a cut file is ErrFile.
func TestSeal(t *testing.T) {
	const magic = "toolhost test\n"
	sealed := Seal(magic, 3, []byte("payload"))
	if got, err := Unseal(sealed, magic, 3); err != nil || string(got) != "payload" {
		t.Fatalf("Unseal = %q, %v; want payload", got, err)
	}
	flipped := bytes.Clone(sealed)
	flipped[len(flipped)-1] ^= 1
	for name, tt := range map[string]struct {
		data    []byte
		magic   string
		version int
	}{
		"other magic":   {sealed, "toolhost other\n", 3},
		"other version": {sealed, magic, 4},
		"changed byte":  {flipped, magic, 3},
		"cut":           {sealed[:len(sealed)-2], magic, 3},
		"empty":         {nil, magic, 3},
	} {
		if got, err := Unseal(tt.data, tt.magic, tt.version); !errors.Is(err, ErrFile) {
			t.Errorf("%s: Unseal = %q, %v; want ErrFile", name, got, err)
		}
	}
}

// FuzzUnseal: any bytes unseal or give ErrFile, never a panic; what
// unseals seals back to the same bytes.
func FuzzUnseal(f *testing.F) {
	const magic = "toolhost test\n"
	f.Add(Seal(magic, 1, []byte("payload")))
	f.Add([]byte(magic))
	f.Fuzz(func(t *testing.T, data []byte) {
		payload, err := Unseal(data, magic, 1)
		if err != nil {
			if !errors.Is(err, ErrFile) {
				t.Fatalf("Unseal error %v is not ErrFile", err)
			}
			return
		}
		if again := Seal(magic, 1, payload); !bytes.Equal(again, data) {
			t.Errorf("Seal(Unseal(%q)) = %q", data, again)
		}
	})
}
