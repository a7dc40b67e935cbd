package trust

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// RevokedKeep is how long a revoked record is kept after `toolhost
// untrust`: long enough that the workspace's next run still calls its
// files "untrusted" (once trusted, then revoked) rather than "new".
const RevokedKeep = 90 * 24 * time.Hour

// prune removes from the store the revoked records (the .revoked files
// [Store.Revoke] leaves) that tell nothing any more, and returns how many
// it removed. A revoked record goes when it is a record of ours, named for
// its root (one readRecord believes), and either
//
//   - it was revoked more than [RevokedKeep] before now (its file's change
//     time, which the rename of Revoke sets and no one can set back, or
//     its modification time, which Revoke sets too, whichever is later). Or
//   - its workspace root no longer exists (Lstat says so): a directory
//     made there later holds files this person never trusted, "new".
//
// It never touches a trusted record (.json) nor a file it does not
// believe (a symbolic link, another user's, malformed): pruning changes
// no workspace's trust, only whether an untrusted file is called
// "untrusted" or "new". It is best effort: errors leave the file.
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
		if !gone && now.Sub(revokedAt(fi)) <= RevokedKeep {
			continue
		}
		if os.Remove(path) == nil {
			removed++
		}
	}
	return removed
}

// revokedAt is when the revoked record fi was revoked: the later of its
// change and modification times.
func revokedAt(fi fs.FileInfo) time.Time {
	if c := changeTime(fi); c.After(fi.ModTime()) {
		return c
	}
	return fi.ModTime()
}
