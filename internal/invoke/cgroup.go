package invoke

import (
	"context"
	"errors"
	"os/exec"
	"syscall"

	"github.com/toolhost/toolhost/internal/invoke/sandbox"
)

// leaf is the cgroup of one call (Linux cgroup v2, see cgroup_linux.go).
// The tool is started straight into it (clone3 CLONE_INTO_CGROUP). So are
// all its descendants, whatever they do to their process group, session,
// name or environment. When the call ends, one write to cgroup.kill ends
// every one of them. A nil *leaf is a call without one. Only its process
// group and its [CallEnv] token are followed.
//
// A leaf that a call left empty is kept, open, for a later call. Making
// and removing a cgroup costs 0.07–0.18 ms on a busy machine. Checking
// that one is empty costs 0.001 ms. See [cgroupHost].
type leaf struct {
	dir    string      // the cgroup's directory
	fd     int         // the directory, open for clone3
	events int         // its cgroup.events, open: "populated 0" once empty
	host   *cgroupHost // where it returns once empty
	once   bool        // removed at its end, never reused (a long-lived process's: Kill may come late)
}

// startContained starts a command made by newCmd in l (see startRetrying).
// launch confines it when not nil. It returns the leaf the process runs
// in: l, or nil when it runs in none. The start may fail in a way that may
// be the kernel refusing the cgroup ([cgroupRefusal]). It then starts the
// command once more without it. That may work while the cause lasts. The
// cause may be clone3 missing or blocked by a seccomp filter. Or the host
// may have no write access to its cgroup. Per-call cgroups are then
// turned off for the rest of the process. Either way the call goes on
// with its process group and token alone.
func startContained(ctx context.Context, l *leaf, launch *sandbox.Launch, newCmd func() *exec.Cmd) (*exec.Cmd, *leaf, error) {
	if l == nil {
		cmd, err := startRetrying(ctx, launch, newCmd)
		return cmd, nil, err
	}
	cmd, err := startRetrying(ctx, launch, func() *exec.Cmd {
		c := newCmd()
		l.attach(c)
		return c
	})
	if err == nil {
		return cmd, l, nil
	}
	l.remove()
	retry, lasting := cgroupRefusal(err)
	if !retry {
		return cmd, nil, err
	}
	cmd, err2 := startRetrying(ctx, launch, newCmd)
	if err2 == nil && lasting {
		disableCgroups("starting a process in a cgroup failed: " + err.Error())
	}
	return cmd, nil, err2
}

// cgroupRefusal reports whether a start error may come from clone3 with
// CLONE_INTO_CGROUP rather than from the exec (retry). It reports whether
// that cause would fail every call (lasting). The other case fails this
// leaf only: it was removed under the host (ENOENT, ENODEV). An exec gives
// some of these too: EACCES, or ENOENT for a missing #! interpreter. A
// second attempt without the cgroup tells them apart, failing the same
// way.
func cgroupRefusal(err error) (retry, lasting bool) {
	for _, e := range []syscall.Errno{syscall.ENOSYS, syscall.EOPNOTSUPP, syscall.EBUSY, syscall.EINVAL, syscall.EPERM, syscall.EACCES, syscall.EBADF} {
		if errors.Is(err, e) {
			return true, true
		}
	}
	return errors.Is(err, syscall.ENOENT) || errors.Is(err, syscall.ENODEV), false
}
