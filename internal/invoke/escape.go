package invoke

import (
	"crypto/rand"
	"encoding/hex"
	"os/exec"
	"sync"
	"sync/atomic"
)

// CallEnv is the variable that marks every process of one [Run]. The child
// gets CallEnv=TOKEN, a token new for each run, and its descendants
// inherit it. When Run returns, every process of the same user still
// carrying the token is killed (Linux, see [EnableSubreaper]). So a tool
// that daemonizes out of its process group (fork, setsid, fork) does not
// outlive its call. Tokens differ between runs. So ending one run never
// touches the processes of another, however many run at once. A process
// that clears its environment drops the token. Only a run's cgroup ends
// that one. That is on Linux, where the host may make one.
const CallEnv = "TOOLHOST_CALL"

// newToken returns a fresh call token, 32 hex digits. The host's own 64
// random bits ([hostToken]) come first, then 64 random bits of the call's.
func newToken() string {
	var b [8]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go ≥ 1.24)
	return hostToken() + hex.EncodeToString(b[:])
}

// hostToken starts every call token of this process. So the watchdog
// (watchdog_linux.go) finds every process of the host's calls once the
// host is gone. It is package-level because what it names is: the
// process. It is drawn at the first call, not at every start.
var hostToken = sync.OnceValue(func() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
})

// subreaper is the process-wide state of [EnableSubreaper]. It holds the
// children os/exec is waiting for, which the host must never reap itself.
//
// Run registers the process it starts while holding mu for reading. So
// the reaper, holding mu for writing, sees every live Run's child in
// leaders. Any other dead child is an adopted orphan it may reap.
type subreaper struct {
	mu      sync.RWMutex
	leaders sync.Map // pid → struct{}: started by Run, waited for by os/exec
}

// adopted is set once by EnableSubreaper. It is package-level because what
// it mirrors is. A process is a subreaper or not, for every caller.
var adopted atomic.Pointer[subreaper]

// start starts cmd. When the host is a subreaper it registers cmd. So
// reaping orphans never takes os/exec's own child.
func start(cmd *exec.Cmd) error {
	r := adopted.Load()
	if r == nil {
		return cmd.Start()
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	err := cmd.Start()
	if err == nil {
		r.leaders.Store(cmd.Process.Pid, struct{}{})
	}
	return err
}

// waited unregisters a child os/exec has waited for.
func waited(pid int) {
	if r := adopted.Load(); r != nil {
		r.leaders.Delete(pid)
	}
}
