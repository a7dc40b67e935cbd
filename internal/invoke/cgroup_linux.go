package invoke

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// cgroupHost is what this process found out, once, about per-call
// cgroups. That is where it may make them, or why it may not.
//
// A call's cgroup, its leaf, is made as a child of the host's own cgroup
// v2. That is the 0:: line of /proc/self/cgroup, under the cgroup2 mount.
// It is the one place an unprivileged host may own, and as good as any for
// root. A systemd user session delegates the user's subtree, and the
// host's scope is inside it. An SSH session's scope belongs to root. A
// child of a cgroup holding processes is allowed as long as no controller
// is enabled for its children. That is so for any cgroup the host can sit
// in, by the rule of "no internal processes". Only the root cgroup may
// hold processes and enable controllers, and children of the root are
// allowed too.
//
// Leaves that calls left empty are kept open for later calls, at most
// maxFreeLeaves of them. Those of a host that exited stay behind, empty.
// The next host started in the same cgroup removes them. Or the cgroup
// itself goes, as a systemd scope's does when its unit ends. Safe for
// concurrent use.
type cgroupHost struct {
	dir    string // the host's own cgroup directory; "" when leaves cannot be made
	reason string // why not, when dir is ""
	prefix string // of the leaves' names: "toolhost-NS-PID-" (see leafPrefix)
	seq    atomic.Uint64

	mu   sync.Mutex
	free []*leaf // empty, their directories open
}

// maxFreeLeaves bounds the empty leaves kept for later calls. Beyond it a
// leaf is removed at the end of its call.
const maxFreeLeaves = 16

// hostCgroup is set once, at the first call (see cgroups). One caller
// holding detecting sets it. It is package-level because what it mirrors
// is. A process's cgroup and what it may do there hold for every caller.
var (
	hostCgroup atomic.Pointer[cgroupHost]
	detecting  sync.Mutex
)

// cgroups returns the host's cgroup facts, finding them out at the first
// call. The calls that start meanwhile wait for them.
func cgroups() *cgroupHost {
	if h := hostCgroup.Load(); h != nil {
		return h
	}
	detecting.Lock()
	defer detecting.Unlock()
	if h := hostCgroup.Load(); h != nil {
		return h
	}
	hostCgroup.Store(detectCgroup())
	return hostCgroup.Load()
}

// disableCgroups turns per-call cgroups off for the rest of the process.
// Calls then rely on the process group and the token scan alone.
func disableCgroups(reason string) {
	if old := hostCgroup.Swap(&cgroupHost{reason: reason}); old != nil {
		old.mu.Lock()
		free := old.free
		old.free = nil
		old.mu.Unlock()
		for _, l := range free {
			l.remove()
		}
	}
}

// get returns an empty leaf for a call: a kept one, or a new one.
func (h *cgroupHost) get() (*leaf, error) {
	h.mu.Lock()
	if n := len(h.free); n > 0 {
		l := h.free[n-1]
		h.free = h.free[:n-1]
		h.mu.Unlock()
		return l, nil
	}
	h.mu.Unlock()
	return h.newLeaf()
}

// put keeps an empty leaf for a later call, or removes it when enough
// are kept.
func (h *cgroupHost) put(l *leaf) {
	h.mu.Lock()
	if len(h.free) < maxFreeLeaves && hostCgroup.Load() == h {
		h.free = append(h.free, l)
		h.mu.Unlock()
		return
	}
	h.mu.Unlock()
	l.remove()
}

// detectCgroup finds the host's cgroup v2 directory. It checks that it can
// make a leaf there that has cgroup.kill (Linux 5.14).
func detectCgroup() *cgroupHost {
	path, err := cgroupPath("/proc/self/cgroup")
	dir, ok := standardCgroupDir(path)
	if err == nil && !ok {
		dir, err = mountedCgroupDir(path, "/proc/self/mountinfo")
	}
	if err != nil {
		return &cgroupHost{reason: err.Error()}
	}
	ns := pidNamespace()
	h := &cgroupHost{dir: dir, prefix: leafPrefix(ns, os.Getpid())}
	l, err := h.newLeaf()
	if err != nil {
		return &cgroupHost{reason: err.Error()}
	}
	if _, err := os.Stat(l.dir + "/cgroup.kill"); err != nil {
		l.remove()
		return &cgroupHost{reason: "the kernel has no cgroup.kill (Linux 5.14 or later has)"}
	}
	h.free = append(h.free, l)
	removeStale(dir, ns)
	return h
}

// leafPrefix is the start of the names of the host pid's leaves:
// "toolhost-NS-PID-". ns is the pid namespace, the inode of
// /proc/self/ns/pid, 0 when unknown. A leaf's name ends with its number.
func leafPrefix(ns uint64, pid int) string {
	return "toolhost-" + strconv.FormatUint(ns, 10) + "-" + strconv.Itoa(pid) + "-"
}

// pidNamespace returns the inode of this process's pid namespace, 0
// when /proc/self/ns/pid cannot be read.
func pidNamespace() uint64 {
	l, err := os.Readlink("/proc/self/ns/pid") // "pid:[4026531836]"
	if err != nil {
		return 0
	}
	s, ok := strings.CutPrefix(l, "pid:[")
	s, ok2 := strings.CutSuffix(s, "]")
	n, err := strconv.ParseUint(s, 10, 64)
	if !ok || !ok2 || err != nil {
		return 0
	}
	return n
}

// staleLeaf reports whether the leaf name in the host's cgroup is one a
// host that exited left. It reports whether what runs in it may be killed.
// A leaf of this pid namespace (ns, not 0) whose host's pid no longer runs
// is killed. Some leaves are only removed when empty. They are those of an
// older toolhost ("toolhost-PID-N", no namespace) or of another namespace,
// whose pid means nothing here. A leaf of another namespace is removed
// only when its pid is not running here either.
func staleLeaf(name string, ns uint64) (stale, kill bool) {
	rest, ok := strings.CutPrefix(name, "toolhost-")
	f := strings.Split(rest, "-")
	if !ok || len(f) < 2 || len(f) > 3 {
		return false, false
	}
	pid, err := strconv.Atoi(f[len(f)-2])
	if err != nil || pid <= 0 || syscall.Kill(pid, 0) != syscall.ESRCH {
		return false, false
	}
	if len(f) == 2 {
		return true, false
	}
	leafNS, err := strconv.ParseUint(f[0], 10, 64)
	return err == nil, err == nil && ns != 0 && leafNS == ns
}

// removeStale ends what hosts that exited left in dir (see staleLeaf). ns
// is the host's pid namespace ([pidNamespace]).
// A host killed with SIGKILL could not end its calls. So whatever still
// runs in its leaves is killed now, whole (cgroup.kill). That may be a
// sandboxed tool, which has no parent-death signal, or any tool's
// descendant. Each leaf is removed once empty, in the background. It runs
// once, when the next host in the same cgroup first needs a leaf. Or it
// runs at that host's start, see [EnableSubreaper].
func removeStale(dir string, ns uint64) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	names, _ := d.Readdirnames(-1)
	d.Close()
	var stale []string
	for _, name := range names {
		if ok, kill := staleLeaf(name, ns); ok {
			leaf := filepath.Join(dir, name)
			if kill {
				_ = writeControl(leaf+"/cgroup.kill", "1")
			}
			stale = append(stale, leaf)
		}
	}
	if len(stale) > 0 {
		go removeKilled(stale, time.Now().Add(staleDrain))
	}
}

// staleDrain bounds the wait for the processes of stale leaves to exit
// before their leaves are removed. A leaf still busy then stays, for the
// next host.
const staleDrain = 5 * time.Second

// removeKilled removes the cgroups dirs once each is empty. At the
// deadline it removes those that are.
func removeKilled(dirs []string, deadline time.Time) {
	for pause := time.Millisecond; len(dirs) > 0; pause = min(2*pause, 100*time.Millisecond) {
		left := dirs[:0]
		for _, dir := range dirs {
			data, err := readAll(dir+"/cgroup.events", nil)
			if err == nil && eventsPopulated(data) && time.Now().Before(deadline) {
				left = append(left, dir)
				continue
			}
			removeCgroup(dir)
		}
		dirs = left
		if len(dirs) > 0 {
			time.Sleep(pause)
		}
	}
}

// ownCgroup returns the directory of this process's cgroup v2, read from
// the given /proc/self/cgroup and /proc/self/mountinfo files.
func ownCgroup(cgroupFile, mountinfoFile string) (string, error) {
	path, err := cgroupPath(cgroupFile)
	if err != nil {
		return "", err
	}
	return mountedCgroupDir(path, mountinfoFile)
}

// cgroup2Magic is CGROUP2_SUPER_MAGIC of statfs(2).
const cgroup2Magic = 0x63677270

// standardCgroupDir returns the directory of cgroup path where cgroup2 is
// mounted whole in the usual places. They are /sys/fs/cgroup (cgroup v2
// alone) or /sys/fs/cgroup/unified (hybrid). It costs a statfs and a stat.
// Reading mountinfo costs ten times more (0.13 ms). ok is false when
// neither holds it.
func standardCgroupDir(path string) (dir string, ok bool) {
	for _, mnt := range []string{"/sys/fs/cgroup", "/sys/fs/cgroup/unified"} {
		var st syscall.Statfs_t
		if syscall.Statfs(mnt, &st) != nil || int64(st.Type) != cgroup2Magic {
			continue
		}
		dir = filepath.Join(mnt, path)
		if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
			return dir, true
		}
	}
	return "", false
}

// cgroupPath returns the cgroup v2 path in a /proc/PID/cgroup file.
func cgroupPath(cgroupFile string) (string, error) {
	data, err := os.ReadFile(cgroupFile)
	if err != nil {
		return "", err
	}
	var path string
	found := false
	for line := range strings.Lines(string(data)) {
		if p, ok := strings.CutPrefix(strings.TrimSuffix(line, "\n"), "0::"); ok {
			path, found = p, true
		}
	}
	if !found || !strings.HasPrefix(path, "/") {
		return "", errors.New("the host is in no cgroup v2 (a cgroup v1 system)")
	}
	return path, nil
}

// mountedCgroupDir returns the directory of cgroup path under the cgroup2
// mount of a /proc/PID/mountinfo file that holds it.
func mountedCgroupDir(path, mountinfoFile string) (string, error) {
	data, err := os.ReadFile(mountinfoFile)
	if err != nil {
		return "", err
	}
	mounted := false
	for line := range strings.Lines(string(data)) {
		pre, post, ok := strings.Cut(strings.TrimSuffix(line, "\n"), " - ")
		f := strings.Fields(pre)
		if !ok || len(f) < 5 || !strings.HasPrefix(post, "cgroup2 ") {
			continue
		}
		mounted = true
		root, point := unescapeMount(f[3]), unescapeMount(f[4])
		rel := path
		if root != "/" {
			if rel, ok = strings.CutPrefix(path, root); !ok || rel != "" && rel[0] != '/' {
				continue // a mount of another part of the hierarchy
			}
		}
		return filepath.Join(point, rel), nil
	}
	if !mounted {
		return "", errors.New("cgroup2 is not mounted")
	}
	return "", fmt.Errorf("the host's cgroup %s is outside every cgroup2 mount", path)
}

// unescapeMount undoes mountinfo's octal escapes (\040 for a space).
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// newLeaf makes a new cgroup below the host's and opens it.
func (h *cgroupHost) newLeaf() (*leaf, error) {
	for {
		dir := filepath.Join(h.dir, h.prefix+strconv.FormatUint(h.seq.Add(1), 10))
		err := syscall.Mkdir(dir, 0o755)
		if err == syscall.EEXIST { // left by an earlier process of the same pid
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("making a cgroup in %s: %w", h.dir, err)
		}
		fd, err := syscall.Open(dir, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
		if err != nil {
			_ = syscall.Rmdir(dir)
			return nil, fmt.Errorf("opening the cgroup %s: %w", dir, err)
		}
		events, err := syscall.Open(dir+"/cgroup.events", syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err != nil {
			_ = syscall.Close(fd)
			_ = syscall.Rmdir(dir)
			return nil, fmt.Errorf("opening the cgroup %s: %w", dir, err)
		}
		return &leaf{dir: dir, fd: fd, events: events, host: h}, nil
	}
}

// newCallLeaf returns an empty cgroup for one call. It returns nil where
// the host may not make one. It then never tries again.
func newCallLeaf() *leaf {
	h := cgroups()
	if h.dir == "" {
		return nil
	}
	l, err := h.get()
	if err != nil {
		if errors.Is(err, syscall.EACCES) || errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EROFS) || errors.Is(err, syscall.ENOENT) {
			disableCgroups(err.Error()) // the host's cgroup is no longer ours (moved, removed)
		}
		return nil
	}
	return l
}

// attach makes cmd start in l.
func (l *leaf) attach(cmd *exec.Cmd) {
	cmd.SysProcAttr.UseCgroupFD, cmd.SysProcAttr.CgroupFD = true, l.fd
}

// remove closes l and removes its directory. The kernel allows that only
// once no process is left in it. A nil l does nothing.
func (l *leaf) remove() {
	if l != nil {
		_ = syscall.Close(l.fd)
		_ = syscall.Close(l.events)
		removeCgroup(l.dir)
	}
}

// removeCgroup removes the cgroup dir and the empty cgroups below it. A
// tool may have made those. A toolhost run as a tool keeps its calls'
// cgroups in its own. A cgroup holding a process stays.
func removeCgroup(dir string) {
	if err := syscall.Rmdir(dir); err != syscall.EBUSY && err != syscall.ENOTEMPTY {
		return
	}
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	entries, _ := d.ReadDir(-1)
	d.Close()
	for _, e := range entries {
		if e.IsDir() {
			removeCgroup(filepath.Join(dir, e.Name()))
		}
	}
	_ = syscall.Rmdir(dir)
}

// kill kills every process in l at once. cgroup.kill sends SIGKILL to
// each, without a race with fork. A nil l does nothing.
func (l *leaf) kill() {
	if l != nil {
		_ = writeControl(l.dir+"/cgroup.kill", "1")
	}
}

// end ends whatever of a call still runs. Its first process was waited for
// and its group killed. end kills everything in l (cgroup.kill). It waits,
// at most drain, for those processes to exit. When the host is a
// subreaper it reaps the ones re-parented to it. It then keeps l, empty,
// for a later call. With a subreaper it also runs the token scan. The scan
// reaps orphans that exited by themselves. It ends what moved out of the
// cgroup but kept the token. Without a subreaper the cgroup is the whole
// check, as the scan reads every process's environ. With l nil (no cgroup)
// it is the token scan alone.
func (l *leaf) end(token string, drain time.Duration) {
	if l == nil {
		endEscaped(token)
		return
	}
	busy, err := l.populated()
	if err == nil && busy { // processes are left in it
		deadline := time.Now().Add(drain)
		pids := cgroupPids(l.dir)
		if writeControl(l.dir+"/cgroup.kill", "1") != nil {
			for _, pid := range pids {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		}
		reapKilled(pids, deadline)
		l.waitEmpty(deadline)
		// Never reused. On Linux 6.18 every process cloned (clone3
		// CLONE_INTO_CGROUP) into a cgroup whose cgroup.kill was ever
		// written is killed at birth. That holds even when the cgroup was
		// empty then. TestRunAfterKilledLeaf fails when such a leaf is kept.
		l.once = true
	}
	if err != nil || l.once {
		l.remove() // a process stuck in the kernel (D state) keeps it: removeStale takes it later
	} else {
		l.host.put(l)
	}
	if adopted.Load() != nil {
		endEscaped(token)
	}
}

// populated reports whether a process is in l or below. It reads l's
// cgroup.events from its start, as the kernel writes it anew.
func (l *leaf) populated() (bool, error) {
	var b [128]byte
	n, err := syscall.Pread(l.events, b[:], 0)
	if err != nil {
		return false, err
	}
	return eventsPopulated(b[:n]), nil
}

// eventsPopulated reads a cgroup.events file. It holds "populated 1" when
// a process is in the cgroup or below.
func eventsPopulated(events []byte) bool {
	return !bytes.HasPrefix(events, []byte("populated 0")) && !bytes.Contains(events, []byte("\npopulated 0"))
}

// cgroupPids lists the processes in the cgroup dir.
func cgroupPids(dir string) []int {
	data, _ := readAll(dir+"/cgroup.procs", nil)
	var pids []int
	for _, f := range strings.Fields(string(data)) {
		if pid, err := strconv.Atoi(f); err == nil {
			pids = append(pids, pid)
		}
	}
	return pids
}

// writeControl writes value to a cgroup control file.
func writeControl(file, value string) error {
	fd, err := syscall.Open(file, syscall.O_WRONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer syscall.Close(fd)
	_, err = syscall.Write(fd, []byte(value))
	return err
}

// waitEmpty waits until no process is left in l, or the deadline.
func (l *leaf) waitEmpty(deadline time.Time) {
	for pause := 50 * time.Microsecond; ; pause = min(2*pause, 10*time.Millisecond) {
		if busy, err := l.populated(); err != nil || !busy || time.Now().After(deadline) {
			return
		}
		time.Sleep(pause)
	}
}

// reapKilled reaps the killed processes pids as they exit, when the host
// is a subreaper. Each was in a call's cgroup, below the child Run waited
// for. So each ends as a zombie child of the host. It was re-parented to
// the host when its parent exited. Another call's cleanup may reap it
// first. reapKilled gives up at deadline. Without a subreaper init reaps
// them.
func reapKilled(pids []int, deadline time.Time) {
	r := adopted.Load()
	if r == nil {
		return
	}
	for pause := 50 * time.Microsecond; len(pids) > 0 && time.Now().Before(deadline); pause = min(2*pause, 10*time.Millisecond) {
		left := pids[:0]
		r.mu.Lock() // no Run is between Start and registering its child
		for _, pid := range pids {
			if _, own := r.leaders.Load(pid); own {
				continue // the pid was reaped elsewhere and is now a Run's child
			}
			got, err := syscall.Wait4(pid, nil, syscall.WNOHANG, nil)
			switch {
			case got == pid: // reaped
			case err == syscall.ECHILD && syscall.Kill(pid, 0) == syscall.ESRCH: // reaped elsewhere
			default: // exiting, or not re-parented to the host yet
				left = append(left, pid)
			}
		}
		r.mu.Unlock()
		pids = left
		if len(pids) > 0 {
			time.Sleep(pause)
		}
	}
}
