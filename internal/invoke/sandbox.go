package invoke

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"slices"

	"github.com/toolhost/toolhost/internal/invoke/sandbox"
	"github.com/toolhost/toolhost/internal/telemetry"
	"github.com/toolhost/toolhost/tool"
)

// ErrSandbox: the OS sandbox could not confine the process. Landlock was
// missing with sandbox = "require", or the thread that starts it could not
// be confined. So the tool did not run.
var ErrSandbox = errors.New("sandbox")

// sandboxed prepares the launch of the executable path under
// spec.Sandbox. It returns nil when the spec is not sandboxed. env is the
// environment the tool would get. The entry's own variables always pass.
// So do the host's: CallEnv, tool.LongLivedEnv, the trace context.
func sandboxed(spec *Spec, path, root, dir string, env []string) (*sandbox.Launch, error) {
	if !spec.Sandbox.Enforced() {
		return nil, nil
	}
	if root == "" {
		root = dir
	}
	if root == "" {
		root, _ = os.Getwd()
	}
	keep := append(slices.Collect(maps.Keys(spec.Env)), CallEnv, tool.LongLivedEnv, telemetry.ParentEnv, telemetry.StateEnv)
	l, err := sandbox.Prepare(spec.Sandbox, path, root, env, keep)
	if err != nil {
		var fe *sandbox.FixError
		if errors.As(err, &fe) {
			return nil, withFix(fmt.Errorf("%w: %w", ErrSandbox, err), fe.Fix)
		}
		return nil, fmt.Errorf("%w: %w", ErrSandbox, err)
	}
	return l, nil
}

// startIn starts cmd (see start), confined by l when l is not nil (see
// sandbox.Launch.Start). A failed confinement is an ErrSandbox with a fix.
func startIn(l *sandbox.Launch, cmd *exec.Cmd) error {
	if l == nil || !l.Enforced {
		var err error
		onForkThread(func() { err = start(cmd) })
		return err
	}
	err := l.Start(cmd.SysProcAttr, func() (int, error) {
		if err := start(cmd); err != nil {
			return 0, err
		}
		return cmd.Process.Pid, nil
	})
	if errors.Is(err, sandbox.ErrConfine) {
		fix := "set sandbox = false in the entry to run it unconfined, or report this with the line above"
		if l.Required { // a fix never turns a require off
			fix = `it says sandbox = "require", so it does not run unconfined: run it where the process can be confined, or report this with the line above`
		}
		return withFix(fmt.Errorf("%w: %w", ErrSandbox, err), fix)
	}
	return err
}

// Denied returns the refusal of spec's sandbox that res shows, nil when
// none. That is a connection the egress proxy refused for want of a rule.
// Else it is what the tool printed (see sandbox.Policy.Explain). A caller
// turns it into an error outcome naming the rule to add. root is the
// request's context.root.
func Denied(spec *Spec, root string, res *Result) *sandbox.Denial {
	if spec == nil || res == nil {
		return nil
	}
	if res.refused != nil {
		return res.refused
	}
	return spec.Sandbox.Explain(root, os.Getenv("HOME"), res.StderrTail, res.Stdout)
}
