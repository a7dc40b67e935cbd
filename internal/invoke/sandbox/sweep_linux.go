package sandbox

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// A call's private temporary directory is named
// toolhost-call-NS-PID-RANDOM: NS is the inode of the host's pid
// namespace, PID the host's pid. A host killed with SIGKILL never runs
// its Cleanup. So the first sandboxed preparation of each process sweeps
// the directories whose host is gone (sweepTemp).
const tempPrefix = "toolhost-call-"

// Bounds of one sweep: it runs once per process, in the background, and
// reads at most sweepScan entries of the parent and removes at most
// sweepRemove directories (the next process goes on).
const (
	sweepScan   = 4096
	sweepRemove = 256
)

var (
	pidNSOnce sync.Once
	pidNS     uint64 // 0: unknown, no sweep
	sweepOnce sync.Once
	sweepRuns int // sweeps started, for tests (under sweepOnce)
)

// hostNS returns the inode of the host's pid namespace, 0 when
// /proc/self/ns/pid cannot be read.
func hostNS() uint64 {
	pidNSOnce.Do(func() {
		l, err := os.Readlink("/proc/self/ns/pid") // "pid:[4026531836]"
		if err != nil {
			return
		}
		s, ok := strings.CutPrefix(l, "pid:[")
		if s, ok2 := strings.CutSuffix(s, "]"); ok && ok2 {
			pidNS, _ = strconv.ParseUint(s, 10, 64)
		}
	})
	return pidNS
}

// tempPattern is the os.MkdirTemp pattern of a call's private directory.
func tempPattern() string {
	return tempPrefix + strconv.FormatUint(hostNS(), 10) + "-" + strconv.Itoa(os.Getpid()) + "-"
}

// sweepTempOnce starts, the first time it is called in the process, a
// background sweep of parent (sweepTemp).
func sweepTempOnce(parent string) {
	sweepOnce.Do(func() {
		sweepRuns++
		ns := hostNS()
		if ns == 0 {
			return
		}
		go sweepTemp(parent, ns, os.Geteuid())
	})
}

// sweepTemp removes from parent the private temporary directories left
// by hosts that are gone, and returns how many it removed. It removes a
// directory only when all hold: its name is toolhost-call-NS-PID-RANDOM
// with NS the namespace ns (a pid of another namespace proves nothing
// here); kill(PID, 0) fails with ESRCH; Lstat finds a directory, not a
// symlink; uid owns it. Names of the older form (toolhost-call-RANDOM)
// carry no pid: they are removed by the stricter rule of sweep_old.go.
func sweepTemp(parent string, ns uint64, uid int) int {
	d, err := os.Open(parent)
	if err != nil {
		return 0
	}
	defer d.Close()
	names, _ := d.Readdirnames(sweepScan)
	removed := 0
	var old []string // older-form names, for sweepOld
	for _, name := range names {
		if removed == sweepRemove {
			break
		}
		if oldForm(name) {
			old = append(old, name)
			continue
		}
		if !deadHost(name, ns) {
			continue
		}
		p := filepath.Join(parent, name)
		if !ownDir(p, uid) {
			continue
		}
		if os.RemoveAll(p) == nil {
			removed++
		}
	}
	return removed + sweepOld(parent, old, uid, sweepRemove-removed, time.Now())
}

// ownDir reports whether Lstat finds at p a directory (not a symlink)
// that uid owns.
func ownDir(p string, uid int) bool {
	fi, err := os.Lstat(p)
	if err != nil || !fi.IsDir() {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == uid
}

// deadHost parses name as toolhost-call-NS-PID-RANDOM and reports
// whether NS is ns and no process PID exists.
func deadHost(name string, ns uint64) bool {
	rest, ok := strings.CutPrefix(name, tempPrefix)
	if !ok {
		return false
	}
	f := strings.Split(rest, "-")
	if len(f) != 3 || f[2] == "" {
		return false
	}
	n, err := strconv.ParseUint(f[0], 10, 64)
	if err != nil || n != ns {
		return false
	}
	pid, err := strconv.Atoi(f[1])
	if err != nil || pid <= 0 {
		return false
	}
	return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}
