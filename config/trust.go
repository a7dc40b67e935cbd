package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/toolhost/toolhost/config/trust"
)

// Trust decides whether [Load] may use a workspace's configuration files.
// Those files name commands that toolhost runs (it asks each binary for its
// schema as soon as it loads). So a workspace a person has not trusted must
// not be read at all: a cloned repository, or a file a tool wrote, would
// otherwise run any command. The user's own file and explicit Files are
// always used: a person wrote or named them.
//
// [*trust.Store] is the implementation toolhost's CLI uses (`toolhost
// trust` writes it); [TrustAll] trusts every workspace. With a
// *trust.Store, the access.fs rules of a trusted workspace also carry the
// targets its record holds ([tool.AccessFS.Targets]).
type Trust interface {
	// Verify returns nil when the workspace at root (the directory holding
	// .config/toolhost) may use exactly these files: each *.toml file's
	// name in root/.config/toolhost mapped to [trust.Sum] of its contents.
	// Otherwise it returns an error saying why, such as a [*trust.Error].
	Verify(root string, files map[string]string) error
}

// TrustAll trusts every workspace, as toolhost did before trust existed:
// for a host that has decided by other means (its own prompt, a sandbox
// around everything it runs), and for tests of fixed workspaces.
var TrustAll Trust = trustAll{}

type trustAll struct{}

func (trustAll) Verify(string, map[string]string) error { return nil }

// Workspace is a workspace's configuration as found on disk.
type Workspace struct {
	Root  string   // the directory holding .config/toolhost
	Dir   string   // Root/.config/toolhost
	Files []string // its *.toml files, sorted by name
	data  [][]byte // their contents, as read
}

// FindWorkspace finds the workspace at or above start ([WorkspaceDir]) and
// reads its files. It returns nil and no error when there is none.
func FindWorkspace(start string) (*Workspace, error) {
	dir, ok := WorkspaceDir(start)
	if !ok {
		return nil, nil
	}
	return readWorkspace(dir)
}

// readWorkspace reads the *.toml files of the .config/toolhost directory dir.
func readWorkspace(dir string) (*Workspace, error) {
	files, err := tomlFiles(dir)
	if err != nil {
		return nil, err
	}
	ws := &Workspace{Root: filepath.Dir(filepath.Dir(dir)), Dir: dir, Files: files, data: make([][]byte, len(files))}
	for i, f := range files {
		if ws.data[i], err = readBounded(f); err != nil {
			return nil, err
		}
	}
	return ws, nil
}

// maxWorkspaceFile bounds the size of a workspace configuration file.
const maxWorkspaceFile = 16 << 20

// readBounded reads a workspace file, which anyone who wrote the workspace
// chose. Only a regular file of at most 16 MiB is read, after symbolic
// links. So a link to /dev/zero or a FIFO cannot exhaust memory or hang a
// command that merely hashes it.
func readBounded(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "read", Path: path, Err: errors.New("not a regular file")}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err = f.Stat(); err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "read", Path: path, Err: errors.New("not a regular file")}
	}
	var buf bytes.Buffer
	buf.Grow(int(min(fi.Size(), maxWorkspaceFile)) + 512) // one allocation when the size holds
	if _, err := buf.ReadFrom(io.LimitReader(f, maxWorkspaceFile+1)); err != nil {
		return nil, &fs.PathError{Op: "read", Path: path, Err: err}
	}
	data := buf.Bytes()
	if len(data) > maxWorkspaceFile {
		return nil, &fs.PathError{Op: "read", Path: path, Err: fmt.Errorf("larger than %d MiB", maxWorkspaceFile>>20)}
	}
	return data, nil
}

// Sums maps each file's name (in Dir) to [trust.Sum] of its contents, as
// [Trust.Verify] takes them.
func (w *Workspace) Sums() map[string]string {
	sums := make(map[string]string, len(w.Files))
	for i, f := range w.Files {
		sums[filepath.Base(f)] = trust.Sum(w.data[i])
	}
	return sums
}

// trustedWorkspace returns the workspace files of the .config/toolhost
// directory dir that t trusts: all of them, read, or none and the problem
// that says why.
func trustedWorkspace(dir string, t Trust) ([]layer, *Error, error) {
	if t == TrustAll {
		names, err := tomlFiles(dir)
		layers := make([]layer, len(names))
		for i, n := range names {
			layers[i] = layer{path: n, kind: workspaceLayer}
		}
		return layers, nil, err
	}
	if t == nil {
		t = trust.Default()
	}
	ws, err := readWorkspace(dir)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) && pe.Path != dir {
			// One file cannot be read: the workspace cannot be verified.
			return nil, &Error{Pos: Position{File: pe.Path}, Err: err, Msg: "cannot read: " + unwrapPath(err) + "; the workspace's configuration is not used"}, nil
		}
		return nil, nil, err
	}
	var targets map[string]string
	if s, ok := t.(*trust.Store); ok {
		rec, err := s.Verified(ws.Root, ws.Sums())
		if err != nil {
			return nil, &Error{Pos: Position{File: dir}, Err: err, Msg: err.Error()}, nil
		}
		targets = rec.Targets
	} else if err := t.Verify(ws.Root, ws.Sums()); err != nil {
		return nil, &Error{Pos: Position{File: dir}, Err: err, Msg: err.Error()}, nil
	}
	layers := make([]layer, len(ws.Files))
	for i, f := range ws.Files {
		layers[i] = layer{path: f, data: ws.data[i], read: true, kind: workspaceLayer, targets: targets}
	}
	return layers, nil, nil
}
