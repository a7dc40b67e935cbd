package invoke

import (
	"os"
	"strconv"
	"sync/atomic"
	"syscall"
)

// closeInherited marks every descriptor of this process from 3 up
// close-on-exec, before a process starts. A tool gets its standard
// streams and what the host gives it on purpose, nothing else. Go opens
// its own files close-on-exec, but not those it inherited. toolhost's
// parent may leave a secret file or a terminal open without the flag. It
// would otherwise reach every tool, as os/exec closes nothing. The
// spawner dups the streams it passes onto 0, 1 and 2 in the child. That
// clears the flag there. So they still reach it.
//
// It runs before every start, not once. A descriptor can come later, from
// a library opening one without the flag. On Linux 5.11 and later it is
// one close_range(2) call. Elsewhere each open descriptor is marked in
// turn.
//
// An embedding program may start processes itself with raw fork and exec.
// If it counts on a descriptor being inherited without the flag, it must
// clear the flag in the child. os/exec's ExtraFiles does.
func closeInherited() {
	if !noCloseRange.Load() {
		if err := closeRangeCloexec(3); err == nil {
			return
		}
		noCloseRange.Store(true)
	}
	markEach()
}

// noCloseRange is set once close_range failed: the kernel lacks it (or
// CLOSE_RANGE_CLOEXEC). So every later start marks each descriptor.
var noCloseRange atomic.Bool

// markEach sets close-on-exec on each open descriptor from 3 up. It takes
// them as /proc/self/fd (or /dev/fd) lists them.
func markEach() {
	for _, dir := range []string{"/proc/self/fd", "/dev/fd"} {
		d, err := os.Open(dir)
		if err != nil {
			continue
		}
		names, _ := d.Readdirnames(-1)
		own := int(d.Fd())
		for _, name := range names {
			if fd, err := strconv.Atoi(name); err == nil && fd > 2 && fd != own {
				syscall.CloseOnExec(fd)
			}
		}
		d.Close()
		return
	}
}
