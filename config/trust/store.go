package trust

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/toolhost/toolhost/internal/atomicfile"
)

// ErrUntrusted is wrapped by every [*Error]. The workspace's configuration
// is not, or no longer, what a person trusted.
var ErrUntrusted = errors.New("workspace configuration is not trusted")

// Error says why a workspace is not trusted. It names the files that
// differ from its [Record], or why its record could not be believed
// (Cause).
type Error struct {
	Root      string   // the workspace root, as given to Verify
	New       []string // files never trusted: the record does not have them (all of them when there is no record)
	Untrusted []string // files that were trusted until `toolhost untrust` revoked the record
	Changed   []string // files whose contents differ from the record
	Removed   []string // files the record has that are gone
	Cause     error    // the record could not be read or believed; nil otherwise
}

// Error returns one line, such as
//
//	workspace /src/app is not trusted: new tools.toml
func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "workspace %s is not trusted: ", e.Root)
	if e.Cause != nil {
		b.WriteString(e.Cause.Error())
		return b.String()
	}
	b.WriteString(e.Differences())
	return b.String()
}

// Differences lists what differs, such as "new a.toml, b.toml; changed
// tools.toml". The order is untrusted, new, changed, removed.
func (e *Error) Differences() string {
	var parts []string
	for _, d := range []struct {
		what  string
		files []string
	}{{"untrusted", e.Untrusted}, {"new", e.New}, {"changed", e.Changed}, {"removed", e.Removed}} {
		if len(d.files) > 0 {
			parts = append(parts, d.what+" "+strings.Join(d.files, ", "))
		}
	}
	if len(parts) == 0 {
		return "no configuration files"
	}
	return strings.Join(parts, "; ")
}

// Unwrap returns [ErrUntrusted] and the Cause, if any.
func (e *Error) Unwrap() []error {
	if e.Cause != nil {
		return []error{ErrUntrusted, e.Cause}
	}
	return []error{ErrUntrusted}
}

// Sum returns the SHA-256 of a configuration file's contents in hex. That
// is the form a [Record] keeps.
func Sum(data []byte) string {
	s := sha256.Sum256(data)
	return hex.EncodeToString(s[:])
}

// Record is what a person trusted in one workspace.
type Record struct {
	Root    string            `json:"root"`       // the workspace root, absolute, symbolic links resolved
	Files   map[string]string `json:"files"`      // file name in .config/toolhost → [Sum] of its contents
	Trusted time.Time         `json:"trusted_at"` // when
	// Targets maps the absolute path each access.fs rule of the files
	// names, links not followed. It maps it to where it resolved when the
	// person trusted them, links followed. The sandbox refuses a call whose
	// rule resolves elsewhere now. Records written before toolhost kept
	// targets have none. Their rules are pinned on first use instead.
	Targets map[string]string `json:"targets,omitempty"`
}

// Store is a directory of trust [Record]s, one file per workspace. It holds
// no state besides its directory. Every method reads or writes the files.
// So several processes may use one store. The last Trust wins.
type Store struct {
	Dir string // where the records are; "" makes every workspace untrusted, and Trust fail
}

// maxRecord bounds the size of a record file.
const maxRecord = 1 << 20

// DefaultDir returns where toolhost keeps trust records. That is
// $XDG_DATA_HOME/toolhost/trust. It is ~/.local/share/toolhost/trust when
// XDG_DATA_HOME is unset or relative. It is "" when neither is known.
func DefaultDir() string {
	if x := os.Getenv("XDG_DATA_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "toolhost", "trust")
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return ""
	}
	return filepath.Join(home, ".local", "share", "toolhost", "trust")
}

// Default returns the store in [DefaultDir], the one `toolhost trust`
// writes.
func Default() *Store {
	return &Store{Dir: DefaultDir()}
}

// errNoDir is the Cause when the store has no directory.
var errNoDir = errors.New("no place for trust records: set XDG_DATA_HOME or HOME")

// Canonical returns root as records key it. It is absolute and cleaned,
// with symbolic links resolved where it exists.
func Canonical(root string) (string, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return "", err
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real, nil
	}
	return abs, nil
}

// path is the record file of the canonical root.
func (s *Store) path(root string) string {
	h := sha256.Sum256([]byte(root))
	return filepath.Join(s.Dir, hex.EncodeToString(h[:16])+".json")
}

// revokedPath is where [Store.Revoke] moves the record of the canonical
// root. It is kept only to tell a file that was trusted ("untrusted") from
// one never trusted ("new"). It trusts nothing, and [Store.List] skips it.
func (s *Store) revokedPath(root string) string {
	return strings.TrimSuffix(s.path(root), ".json") + ".revoked"
}

// filesOf returns a revoked record's files when it is root's, else nil.
func (r *Record) filesOf(root string) map[string]string {
	if r == nil || r.Root != root {
		return nil
	}
	return r.Files
}

// Verify returns nil when the workspace at root has exactly the files a
// person trusted, with the same contents. files maps each configuration
// file's name (in root/.config/toolhost) to its [Sum]. Otherwise Verify
// returns an [*Error] (errors.Is [ErrUntrusted]). The error names what
// differs, or why the record is not believed.
func (s *Store) Verify(root string, files map[string]string) error {
	_, err := s.Verified(root, files)
	return err
}

// Verified is [Store.Verify] that also returns the record it checked the
// files against, when it trusts them.
func (s *Store) Verified(root string, files map[string]string) (*Record, error) {
	canon, err := Canonical(root)
	if err != nil {
		return nil, &Error{Root: root, Cause: err}
	}
	rec, err := s.Get(canon)
	if err != nil {
		return nil, &Error{Root: root, Cause: err}
	}
	if rec == nil {
		e := &Error{Root: root}
		revoked, _ := readRecord(s.revokedPath(canon)) // unbelievable: as if none
		for _, name := range slices.Sorted(maps.Keys(files)) {
			if _, ok := revoked.filesOf(canon)[name]; ok {
				e.Untrusted = append(e.Untrusted, name)
			} else {
				e.New = append(e.New, name)
			}
		}
		return nil, e
	}
	e := &Error{Root: root}
	for _, name := range slices.Sorted(maps.Keys(files)) {
		sum, ok := rec.Files[name]
		switch {
		case !ok:
			e.New = append(e.New, name)
		case sum != files[name]:
			e.Changed = append(e.Changed, name)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(rec.Files)) {
		if _, ok := files[name]; !ok {
			e.Removed = append(e.Removed, name)
		}
	}
	if e.New == nil && e.Changed == nil && e.Removed == nil {
		return rec, nil
	}
	return nil, e
}

// Get returns the record of the workspace at root, nil when there is none.
// An error means a record exists but cannot be believed (see the package
// documentation). Its message names the file and the fix.
func (s *Store) Get(root string) (*Record, error) {
	if s.Dir == "" {
		return nil, errNoDir
	}
	canon, err := Canonical(root)
	if err != nil {
		return nil, err
	}
	path := s.path(canon)
	rec, err := readRecord(path)
	if err != nil || rec == nil {
		return nil, err
	}
	if rec.Root != canon {
		return nil, fmt.Errorf("trust record %s is for %s, not %s; run toolhost trust again", path, rec.Root, canon)
	}
	return rec, nil
}

// readRecord reads and checks one record file. It returns nil, nil when
// the file does not exist.
func readRecord(path string) (*Record, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|openNoFollow, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("trust record %s: %w; remove it and run toolhost trust again", path, unwrapPath(err))
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	switch {
	case !fi.Mode().IsRegular():
		return nil, fmt.Errorf("trust record %s is not a regular file; remove it and run toolhost trust again", path)
	case fi.Mode().Perm()&0o022 != 0:
		return nil, fmt.Errorf("trust record %s is writable by others (mode %04o); remove it and run toolhost trust again", path, fi.Mode().Perm())
	case !ownedByUs(fi):
		return nil, fmt.Errorf("trust record %s belongs to another user; remove it and run toolhost trust again", path)
	case fi.Size() > maxRecord:
		return nil, fmt.Errorf("trust record %s is larger than %d bytes; remove it and run toolhost trust again", path, maxRecord)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxRecord+1))
	if err != nil {
		return nil, err
	}
	rec, ok := parseRecord(data)
	if !ok {
		return nil, fmt.Errorf("trust record %s is not a trust record; remove it and run toolhost trust again", path)
	}
	return rec, nil
}

// parseRecord decodes a record file's contents. That is a JSON object with
// an absolute root and a files object of names to hex SHA-256 sums. It may
// have a targets object of clean absolute paths to clean absolute paths.
func parseRecord(data []byte) (*Record, bool) {
	var rec Record
	if err := json.Unmarshal(data, &rec); err != nil || !filepath.IsAbs(rec.Root) || rec.Files == nil {
		return nil, false
	}
	for named, target := range rec.Targets {
		if !cleanAbs(named) || !cleanAbs(target) {
			return nil, false
		}
	}
	for name, sum := range rec.Files {
		if name == "" || strings.ContainsAny(name, `/\`) || len(sum) != 2*sha256.Size {
			return nil, false
		}
		if _, err := hex.DecodeString(sum); err != nil {
			return nil, false
		}
	}
	return &rec, true
}

// cleanAbs reports whether p is an absolute path in its shortest form.
func cleanAbs(p string) bool {
	return filepath.IsAbs(p) && filepath.Clean(p) == p
}

// Trust records that a person trusts the workspace at root with these
// files (name → [Sum]). It replaces any earlier record of it. The record is
// written to a temporary file and renamed. It is owner-only: 0600, in a
// 0700 directory. It records no targets: see [Store.TrustTargets].
func (s *Store) Trust(root string, files map[string]string) (*Record, error) {
	return s.TrustTargets(root, files, nil)
}

// TrustTargets is [Store.Trust] that also records where the files'
// access.fs rules resolve now ([Record.Targets]). It maps named path to
// target. A target that is not a clean absolute path is an error.
func (s *Store) TrustTargets(root string, files, targets map[string]string) (*Record, error) {
	if s.Dir == "" {
		return nil, errNoDir
	}
	for named, target := range targets {
		if !cleanAbs(named) || !cleanAbs(target) {
			return nil, fmt.Errorf("recording trust: access.fs target %q → %q is not a clean absolute path", named, target)
		}
	}
	canon, err := Canonical(root)
	if err != nil {
		return nil, err
	}
	rec := &Record{Root: canon, Files: maps.Clone(files), Trusted: time.Now().UTC().Truncate(time.Second), Targets: maps.Clone(targets)}
	if rec.Files == nil {
		rec.Files = map[string]string{}
	}
	data, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return nil, err
	}
	if err := s.mkdir(); err != nil {
		return nil, err
	}
	if err := atomicfile.Write(s.path(canon), append(data, '\n'), 0o600); err != nil {
		return nil, fmt.Errorf("recording trust in %s: %w", s.Dir, err)
	}
	os.Remove(s.revokedPath(canon)) // trusted again: what was revoked is moot
	s.prune(time.Now())
	return rec, nil
}

// mkdir creates the store's directory owner-only, and refuses one that
// others can write.
func (s *Store) mkdir() error {
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return fmt.Errorf("recording trust: %w", err)
	}
	fi, err := os.Lstat(s.Dir)
	if err != nil {
		return fmt.Errorf("recording trust: %w", err)
	}
	if !fi.IsDir() || fi.Mode().Perm()&0o022 != 0 || !ownedByUs(fi) {
		return fmt.Errorf("recording trust: %s must be a directory of yours that only you can write (chmod 700 %s)", s.Dir, s.Dir)
	}
	return nil
}

// Revoke removes the record of the workspace at root, and reports whether
// there was one. The record is kept aside, trusting nothing. So
// [Store.Verify] calls its files untrusted rather than new. That lasts for
// revokedKeep (90 days) or until the workspace's directory is gone. Revoke and
// [Store.Trust] prune older ones (prune.go).
func (s *Store) Revoke(root string) (bool, error) {
	if s.Dir == "" {
		return false, errNoDir
	}
	canon, err := Canonical(root)
	if err != nil {
		return false, err
	}
	err = os.Rename(s.path(canon), s.revokedPath(canon))
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("revoking trust: %w", err)
	}
	now := time.Now()
	_ = os.Chtimes(s.revokedPath(canon), now, now) // when revoked, where no ctime tells
	s.prune(now)
	return true, nil
}

// List returns every record in the store, sorted by root. Records that
// cannot be believed are left out, and named in the error.
func (s *Store) List() ([]*Record, error) {
	if s.Dir == "" {
		return nil, errNoDir
	}
	entries, err := os.ReadDir(s.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var recs []*Record
	var errs []error
	for _, de := range entries {
		if !strings.HasSuffix(de.Name(), ".json") || strings.HasPrefix(de.Name(), ".") {
			continue
		}
		path := filepath.Join(s.Dir, de.Name())
		rec, err := readRecord(path)
		if err == nil && rec != nil && s.path(rec.Root) != path {
			err = fmt.Errorf("trust record %s is for %s but is not named for it; remove it", path, rec.Root)
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if rec != nil {
			recs = append(recs, rec)
		}
	}
	slices.SortFunc(recs, func(a, b *Record) int { return strings.Compare(a.Root, b.Root) })
	return recs, errors.Join(errs...)
}

// unwrapPath is the cause of an *fs.PathError without the operation and
// path. The message names them already.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
