package sandbox

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Directories of the older form toolhost-call-DIGITS (earlier versions
// named them with os.MkdirTemp's random number only) carry no pid. So no
// kill(PID, 0) can prove their host gone. sweepOld removes one when all
// of these hold, each checked without following a symlink:
//
//   - Lstat finds a real directory that the host's user owns.
//   - neither it nor anything in it (at most oldTempEntries entries) was
//     modified or changed (mtime, ctime: a tool cannot set ctime back)
//     for oldTempAge: a one-shot call's directory lives for the call, so
//     only a long-lived (pooled) tool's can be that old and in use.
//   - no process of the user that /proc shows refers to it: not in its
//     environment (the tool's TMPDIR), its working directory, its open
//     files or its memory mappings. A pooled tool is started with
//     TMPDIR set to its directory and keeps it for its life. So this is
//     what tells an idle pooled tool's directory from a dead one's.
//
// If /proc cannot be read, none is removed. A process /proc shows but
// whose entries the user may not read (made non-dumpable, another user
// namespace's) is passed over: a tool toolhost starts stays dumpable
// (same user, no set-uid, exec resets it). Processes of another pid
// namespace that shares the directory are not seen: the age is what
// protects their directories (docs/reliability.md).
const (
	oldTempAge     = 24 * time.Hour
	oldTempEntries = 1024
)

// oldForm reports whether name is toolhost-call-DIGITS.
func oldForm(name string) bool {
	rest, ok := strings.CutPrefix(name, tempPrefix)
	if !ok || rest == "" {
		return false
	}
	for _, c := range rest {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// sweepOld removes, of the older-form names in parent, at most limit
// directories that the rule above lets go, judging their age at now, and
// returns how many it removed.
func sweepOld(parent string, names []string, uid, limit int, now time.Time) int {
	var stale []string
	for _, name := range names {
		if p := filepath.Join(parent, name); ownDir(p, uid) && untouched(p, now) {
			stale = append(stale, name)
		}
	}
	if len(stale) == 0 || limit <= 0 {
		return 0
	}
	used, ok := inUse(uid, stale)
	if !ok {
		return 0
	}
	removed := 0
	for _, name := range stale {
		if removed == limit {
			break
		}
		if used[name] {
			continue
		}
		p := filepath.Join(parent, name)
		if !ownDir(p, uid) { // replaced meanwhile
			continue
		}
		if os.RemoveAll(p) == nil {
			removed++
		}
	}
	return removed
}

// untouched reports whether the tree at dir (walked without following
// symlinks, at most oldTempEntries entries) has no entry modified or
// changed within oldTempAge of now. An entry it cannot read, or a larger
// tree, is reported as touched: the directory stays.
func untouched(dir string, now time.Time) bool {
	n := 0
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if n++; n > oldTempEntries {
			return errTouched
		}
		fi, err := d.Info() // an Lstat
		if err != nil {
			return err
		}
		st, ok := fi.Sys().(*syscall.Stat_t)
		if !ok {
			return errTouched
		}
		changed := time.Unix(st.Ctim.Unix())
		if fi.ModTime().After(changed) {
			changed = fi.ModTime()
		}
		if now.Sub(changed) < oldTempAge {
			return errTouched
		}
		return nil
	})
	return err == nil
}

var errTouched = errors.New("touched")

// inUse reads /proc for the processes uid owns. It returns which of names,
// base names of directories, one of them refers to. A process may refer to
// one in its environment, its working directory, an open file or a memory
// mapping. ok is false
// when /proc cannot be read.
func inUse(uid int, names []string) (used map[string]bool, ok bool) {
	d, err := os.Open("/proc")
	if err != nil {
		return nil, false
	}
	defer d.Close()
	pids, err := d.Readdirnames(-1)
	if err != nil {
		return nil, false
	}
	used = map[string]bool{}
	mark := func(s string) {
		for _, name := range names {
			if mentions(s, name) {
				used[name] = true
			}
		}
	}
	for _, pid := range pids {
		if _, err := strconv.Atoi(pid); err != nil {
			continue
		}
		proc := "/proc/" + pid
		if !ownDir(proc, uid) { // another user's, or not dumpable
			continue
		}
		if b, err := os.ReadFile(proc + "/environ"); err == nil {
			mark(string(b))
		}
		if b, err := os.ReadFile(proc + "/maps"); err == nil {
			mark(string(b))
		}
		if l, err := os.Readlink(proc + "/cwd"); err == nil {
			mark(l)
		}
		fds, _ := os.ReadDir(proc + "/fd")
		for _, fd := range fds {
			if l, err := os.Readlink(proc + "/fd/" + fd.Name()); err == nil {
				mark(l)
			}
		}
	}
	return used, true
}

// mentions reports whether s holds name not followed by a digit
// (toolhost-call-12 is not in toolhost-call-123).
func mentions(s, name string) bool {
	for {
		i := strings.Index(s, name)
		if i < 0 {
			return false
		}
		s = s[i+len(name):]
		if s == "" || s[0] < '0' || s[0] > '9' {
			return true
		}
	}
}
