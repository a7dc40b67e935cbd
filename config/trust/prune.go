package trust

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// revokedKeep is how long a revoked record is kept after `toolhost
// untrust`. It is long enough that the workspace's next run still calls
// its files "untrusted" rather than "new". They were once trusted, then
// revoked.
const revokedKeep = 90 * 24 * time.Hour

// prune removes from the store the revoked records that tell nothing any
// more. Those are the .revoked files [Store.Revoke] leaves. It returns how
// many it removed. A revoked record goes when it is a record of ours,
// named for its root, one readRecord believes. It must also meet one of
// these:
//
//   - It was revoked more than revokedKeep before now. That time is the
//     later of its file's change time and its modification time. The
//     rename of Revoke sets the change time, and no one can set it back.
//     Revoke sets the modification time too. Or
//   - its workspace root no longer exists, as Lstat says. A directory
//     made there later holds files this person never trusted, "new".
//
// It never touches a trusted record (.json). Nor does it touch a file it
// does not believe: a symbolic link, another user's, a malformed one.
// Pruning changes no workspace's trust. It only changes whether an
// untrusted file is called "untrusted" or "new". It is best effort.
// Errors leave the file.
func (s *Store) prune(now time.Time) int {
	if s.Dir == "" {
		return 0
	}
	entries, err := os.ReadDir(s.Dir)
	if err != nil {
		return 0
	}
	removed := 0
	for _, de := range entries {
		name := de.Name()
		if !strings.HasSuffix(name, ".revoked") || strings.HasPrefix(name, ".") || !de.Type().IsRegular() {
			continue
		}
		path := filepath.Join(s.Dir, name)
		rec, err := readRecord(path) // not a symlink, ours, not writable by others, a record
		if err != nil || rec == nil || s.revokedPath(rec.Root) != path {
			continue
		}
		fi, err := os.Lstat(path)
		if err != nil {
			continue
		}
		_, rerr := os.Lstat(rec.Root)
		gone := errors.Is(rerr, fs.ErrNotExist)
		if !gone && now.Sub(revokedAt(fi)) <= revokedKeep {
			continue
		}
		if os.Remove(path) == nil {
			removed++
		}
	}
	return removed
}

// revokedAt is when the revoked record fi was revoked. That is the later
// of its change and modification times.
func revokedAt(fi fs.FileInfo) time.Time {
	if c := changeTime(fi); c.After(fi.ModTime()) {
		return c
	}
	return fi.ModTime()
}
