package invoke

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"sync"
	"syscall"
	"time"

	"github.com/toolhost/toolhost/internal/invoke/sandbox"
	"github.com/toolhost/toolhost/tool"
)

// prepared is one process ready to start. Its executable and argv are
// resolved, its environment built, its sandbox launch prepared. [Run],
// [Start] and [Open] make one, and [spawn] starts it.
type prepared struct {
	path   string
	argv   []string
	dir    string
	env    []string
	token  string          // its CallEnv token
	launch *sandbox.Launch // nil when it runs unconfined
}

// prepare resolves spec for req. It resolves the working directory and
// the argv, its templates rendered unless literal. It builds the
// environment: environ, then hostEnv, then the CallEnv token, which
// nothing overrides. It resolves the executable and the sandbox launch.
// The error is a cause for an [*Error]. A *fixError carries its fix.
func prepare(spec *Spec, req *tool.Request, literal bool, hostEnv ...string) (*prepared, error) {
	p := &prepared{dir: workDir(spec.Dir, req.Context.Root), token: newToken()}
	p.env = append(append(environ(spec, p.dir), hostEnv...), CallEnv+"="+p.token)
	p.argv = spec.Command
	if !literal {
		var err error
		if p.argv, err = commandLine(spec, req); err != nil {
			return nil, err
		}
	}
	if p.dir != "" {
		if fi, err := os.Stat(p.dir); err != nil || !fi.IsDir() {
			if err == nil {
				err = errors.New("not a directory")
			} else {
				err = errors.Unwrap(err) // the errno, without the path
			}
			return nil, withFix(fmt.Errorf("%w: working directory %s: %v", ErrNotFound, p.dir, err), "check workdir in the entry or the workspace root")
		}
	}
	var err error
	if p.path, err = lookPath(p.argv[0], p.dir, envValue(p.env, "PATH")); err != nil {
		return nil, err
	}
	if p.launch, err = sandboxed(spec, p.path, req.Context.Root, p.dir, p.env); err != nil {
		return nil, err
	}
	if p.launch != nil {
		p.env = p.launch.Env
	}
	return p, nil
}

// cleanup removes what the sandbox launch prepared: its ruleset and the
// private TMPDIR. It runs once the process and its descendants are gone.
func (p *prepared) cleanup() {
	if p.launch != nil {
		p.launch.Cleanup()
	}
}

// spawn is the one place toolhost starts a process. That covers one-shot
// runs, the long-lived processes of pools, and MCP stdio servers. It
// starts p with the standard streams that setup gives the command. It
// gives nothing else (see closeInherited). p runs in a process group of
// its own. Where the host may make one, it runs in a cgroup v2 of its
// own. p's sandbox launch confines it. It gets SIGKILL as its
// parent-death signal unless the sandbox starts it from a throwaway
// thread. That thread's end would fire the signal at once. An unconfined
// process is forked from the fork thread (onForkThread). That thread
// lives as long as the host. setup may set Cancel and WaitDelay. ctx is
// the command's (exec.CommandContext). spawn returns the started command
// and the cgroup it runs in, nil for none. [end] ends what is left of it.
func spawn(ctx context.Context, p *prepared, setup func(*exec.Cmd)) (*exec.Cmd, *leaf, error) {
	confined := p.launch != nil && p.launch.Enforced
	if !confined {
		startForkThread()
	}
	closeInherited()
	return startContained(ctx, newCallLeaf(), p.launch, func() *exec.Cmd {
		cmd := exec.CommandContext(ctx, p.path, p.argv[1:]...)
		cmd.Args[0] = p.argv[0]
		cmd.Dir = p.dir
		cmd.Env = p.env
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if !confined {
			dieWithHost(cmd.SysProcAttr)
		}
		setup(cmd)
		return cmd
	})
}

// end ends whatever is left of a spawned process that was waited for. It
// kills its process group (SIGKILL). It then ends its cgroup and what
// still carries its token (see leaf.end), giving them drain to go.
func end(pgid int, box *leaf, token string, drain time.Duration) {
	waited(pgid)
	_ = signalGroup(pgid, syscall.SIGKILL)
	box.end(token, drain)
}

// forkThread is the thread every unconfined process is forked from. It is
// a goroutine locked to its OS thread for the life of the host. So a
// parent-death signal fires when the host dies, never before. A process
// forked from any other thread would get its signal when that thread
// ends. The Go runtime ends a thread whenever a goroutine locked to it
// returns. The sandbox's throwaway threads do, and any thread may have
// forked an earlier process. It is package-level because what it
// mirrors is: a thread of the process.
var forkThread struct {
	once sync.Once
	work chan func()
}

// startForkThread starts the fork thread, once. spawn starts it before it
// makes the cgroup leaf. So the thread starts beside that work. Started
// by the first fork, it took the forking goroutine's own thread. That
// goroutine then waited for a new one, made while the tool started.
func startForkThread() {
	forkThread.once.Do(func() {
		forkThread.work = make(chan func())
		go func() {
			runtime.LockOSThread() // never unlocked: the thread lives as long as the host
			checkPidfd()
			for f := range forkThread.work {
				f()
			}
		}()
	})
}

// checkPidfd makes package os check now that pidfds work. It checks once,
// at its first use of one, by cloning a child that exits at once and
// waiting for it: about 0.3 ms. The fork thread does it when it starts,
// while the caller makes the cgroup leaf. The first fork then finds it
// done. Asking for a pidfd of the host is such a use.
func checkPidfd() {
	if p, err := os.FindProcess(os.Getpid()); err == nil {
		_ = p.Release()
	}
}

// onForkThread runs fn on the fork thread and waits for it.
func onForkThread(fn func()) {
	startForkThread()
	done := make(chan struct{})
	forkThread.work <- func() { fn(); close(done) }
	<-done
}
