package invoke

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// prSetChildSubreaper is PR_SET_CHILD_SUBREAPER of prctl(2).
const prSetChildSubreaper = 36

// EnableSubreaper makes this process a child subreaper (Linux
// prctl(PR_SET_CHILD_SUBREAPER)). A process orphaned below it, such as a
// tool's daemon whose parent exited, is re-parented to it rather than to
// init. [Run] then kills and reaps the ones carrying its token. It also
// reaps adopted orphans that exited by themselves. So none is left as a
// zombie.
//
// Call it once, at start, before any process is started. Call it only in
// a program whose child processes are all started by [Run], such as the
// toolhost command. Reaping adopted orphans waits for children Run did not
// start. That would steal the exit status of a child the program started
// itself. Without it Run still kills what its tools leave behind (found
// by [CallEnv]), and init reaps those. A host that called it also starts
// a watchdog (watchdog_linux.go). It starts with the host's first
// long-lived process, or once a call has run 100 ms. The watchdog ends
// what the host leaves running if it is killed. EnableSubreaper returns an
// error on other systems.
func EnableSubreaper() error {
	if adopted.Load() != nil {
		return nil
	}
	if err := prctl(prSetChildSubreaper, 1); err != nil {
		return err
	}
	adopted.CompareAndSwap(nil, &subreaper{})
	return nil
}

func prctl(option, arg uintptr) error {
	if _, _, errno := syscall.Syscall(syscall.SYS_PRCTL, option, arg, 0); errno != 0 {
		return errno
	}
	return nil
}

// maxEndRounds bounds the scans of endEscaped. Each round kills what the
// last one found, and a process killed can have forked just before.
const maxEndRounds = 4

// endEscaped kills every process whose environment carries CallEnv=token.
// That is what a run left behind, in its group or escaped from it.
//
// The host may be a subreaper, as the toolhost command is. Whatever
// escaped is then below one of its own children. A process whose parent
// died is re-parented to the host. So only the host's children that no Run
// waits for, and their descendants, are read. That is
// /proc/self/task/*/children and one environ each. The cost does not
// depend on how many processes the machine runs. Otherwise every process
// whose environ this process may read is scanned (/proc/*/environ). That
// is its user's, or all for root.
func endEscaped(token string) {
	marker := []byte(CallEnv + "=" + token + "\x00")
	self := os.Getpid()
	r := adopted.Load()
	if r == nil {
		endEscapedScan(marker, self)
		return
	}
	var buf []byte // made when a child is to be read: most runs leave none
	for range maxEndRounds {
		// An orphan is re-parented to the subreaper's first live thread,
		// its main thread (Linux find_new_reaper). One file lists them all.
		// Run's own children may sit under other threads. They are skipped.
		kids, ok := childrenFile(strconv.Itoa(self) + "/task/" + strconv.Itoa(self))
		if !ok { // no /proc/PID/task/TID/children: scan instead
			endEscapedScan(marker, self)
			return
		}
		var killed, zombies []int
		for _, pid := range kids {
			if _, own := r.leaders.Load(pid); own {
				continue // a Run's own child, waited for by os/exec
			}
			name := strconv.Itoa(pid)
			if buf == nil {
				buf = make([]byte, 0, 16<<10)
			}
			buf, _ = readAll("/proc/"+name+"/environ", buf[:0])
			switch {
			case hasMarker(buf, marker):
				killed = append(killed, pid)
				buf = killTree(name, marker, buf)
			case len(buf) == 0: // a zombie's environ is empty
				if state, _ := procStat(name); state == 'Z' {
					zombies = append(zombies, pid)
				}
			}
		}
		for _, pid := range killed {
			_, _ = syscall.Wait4(pid, nil, 0, nil) // its children are ours now, for the next round
		}
		if len(zombies) > 0 {
			r.reap(zombies)
		}
		if len(killed) == 0 {
			return
		}
	}
}

// killTree SIGKILLs process name and every descendant carrying marker,
// parents first. buf is scratch space, returned for reuse.
func killTree(name string, marker, buf []byte) []byte {
	pid, _ := strconv.Atoi(name)
	_ = syscall.Kill(pid, syscall.SIGKILL)
	kids, _ := childrenOf(name + "/task")
	for _, k := range kids {
		kn := strconv.Itoa(k)
		buf, _ = readAll("/proc/"+kn+"/environ", buf[:0])
		if hasMarker(buf, marker) {
			buf = killTree(kn, marker, buf)
		}
	}
	return buf
}

// childrenOf lists the children of the threads under /proc/TASKDIR
// (PID/task). It reads their children files. ok is false when the kernel
// has none (CONFIG_PROC_CHILDREN).
func childrenOf(taskDir string) (pids []int, ok bool) {
	d, err := os.Open("/proc/" + taskDir)
	if err != nil {
		return nil, false
	}
	tids, _ := d.Readdirnames(-1)
	d.Close()
	for _, tid := range tids {
		kids, ok := childrenFile(taskDir + "/" + tid)
		if !ok {
			return nil, false
		}
		pids = append(pids, kids...)
	}
	return pids, true
}

// childrenFile lists the children of one thread, /proc/PID/task/TID
// (given without /proc/). ok is false when the kernel has no children
// files. A thread that ended has none.
func childrenFile(task string) (pids []int, ok bool) {
	buf, err := readAll("/proc/"+task+"/children", nil)
	if err != nil {
		return nil, !(os.IsNotExist(err) && taskExists(task)) // a live thread without the file: no children files at all
	}
	for _, f := range strings.Fields(string(buf)) {
		if pid, err := strconv.Atoi(f); err == nil {
			pids = append(pids, pid)
		}
	}
	return pids, true
}

// taskExists reports whether /proc/TASK exists. It tells a thread that
// ended from a kernel without children files.
func taskExists(task string) bool {
	_, err := os.Stat("/proc/" + task)
	return err == nil
}

// hasMarker reports whether an environ block holds marker as a variable.
func hasMarker(environ, marker []byte) bool {
	return bytes.HasPrefix(environ, marker) || bytes.Contains(environ, append([]byte{0}, marker...))
}

// endEscapedScan is endEscaped without a subreaper. It scans every
// process's environ and kills those that carry marker. Init reaps them.
func endEscapedScan(marker []byte, self int) {
	for range maxEndRounds {
		found, _ := scanProc(marker, self, false)
		for _, p := range found {
			_ = syscall.Kill(p.pid, syscall.SIGKILL)
		}
		for _, p := range found {
			if p.ppid == self {
				_, _ = syscall.Wait4(p.pid, nil, 0, nil)
			}
		}
		if len(found) == 0 {
			return
		}
	}
}

// reap reaps the given dead children unless os/exec waits for them.
func (r *subreaper) reap(pids []int) {
	r.mu.Lock() // no Run is between Start and registering its child
	defer r.mu.Unlock()
	for _, pid := range pids {
		if _, own := r.leaders.Load(pid); !own {
			reapZombie(pid)
		}
	}
}

// reapZombie reaps the dead child pid. A multi-threaded process's leader
// shows "Z" as soon as it exits. It cannot be waited for until its other
// threads have exited too (the kernel's delay_group_leader). wait4 with
// WNOHANG then returns 0. So it is asked again for up to ~200 ms.
func reapZombie(pid int) {
	for range 200 {
		var ws syscall.WaitStatus
		if wp, err := syscall.Wait4(pid, &ws, syscall.WNOHANG, nil); wp != 0 || err != nil {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// procEntry is a process found by scanProc.
type procEntry struct{ pid, ppid int }

// scanProc lists the processes other than self whose environ holds
// marker. With children, it also lists the zombie children of self. It
// reads one file per process, /proc/PID/environ. A process of another user
// fails at once unless the host is root. It reads /proc/PID/stat only for
// a match. With children it also reads it for an environ empty or
// unreadable, as a zombie's is.
func scanProc(marker []byte, self int, children bool) (found []procEntry, zombies []int) {
	d, err := os.Open("/proc")
	if err != nil {
		return nil, nil
	}
	names, _ := d.Readdirnames(-1)
	d.Close()
	buf := make([]byte, 0, 16<<10)
	sep := append([]byte{0}, marker...)
	for _, name := range names {
		if name[0] < '0' || name[0] > '9' {
			continue
		}
		pid, err := strconv.Atoi(name)
		if err != nil || pid == self {
			continue
		}
		buf, err = readAll("/proc/"+name+"/environ", buf[:0])
		switch {
		case err == nil && (bytes.HasPrefix(buf, marker) || bytes.Contains(buf, sep)):
			_, ppid := procStat(name)
			found = append(found, procEntry{pid, ppid})
		case len(buf) == 0 && children: // a zombie's environ is empty or unreadable
			if state, ppid := procStat(name); state == 'Z' && ppid == self {
				zombies = append(zombies, pid)
			}
		}
	}
	return found, zombies
}

// procStat returns the state and parent of process name from
// /proc/NAME/stat, or 0 and -1.
func procStat(name string) (state byte, ppid int) {
	data, err := os.ReadFile("/proc/" + name + "/stat")
	if err != nil {
		return 0, -1
	}
	s := string(data)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:]) // comm may hold spaces
	if len(f) < 2 {
		return 0, -1
	}
	pp, err := strconv.Atoi(f[1])
	if err != nil {
		return 0, -1
	}
	return f[0][0], pp
}

// readAll reads file into buf, growing it as needed. It uses the system
// calls directly. os.Open would also try to register the file with the
// poller, for every process scanned.
func readAll(file string, buf []byte) ([]byte, error) {
	fd, err := syscall.Open(file, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return buf, err
	}
	defer syscall.Close(fd)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := syscall.Read(fd, buf[len(buf):cap(buf)])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return buf, err
		}
		if n == 0 {
			return buf, nil
		}
		buf = buf[:len(buf)+n]
	}
}
