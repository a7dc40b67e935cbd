package invoke

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"

	"github.com/toolhost/toolhost/invoke/sandbox"
	"github.com/toolhost/toolhost/tool"
)

// ErrSandbox: the OS sandbox could not confine the process (Landlock
// missing with sandbox = "require", or the trampoline failed), so the
// tool did not run.
var ErrSandbox = errors.New("sandbox")

// sandboxed prepares the launch of the executable path under
// spec.Sandbox, nil when the spec is not sandboxed. env is the
// environment the tool would get; the entry's own variables and the
// host's (CallEnv, tool.LongLivedEnv) always pass.
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
	keep := append(slices.Collect(maps.Keys(spec.Env)), CallEnv, tool.LongLivedEnv)
	l, err := sandbox.Prepare(spec.Sandbox, path, root, env, keep)
	if err != nil {
		var fe interface{ Fix() string }
		if errors.As(err, &fe) {
			return nil, withFix(fmt.Errorf("%w: %w", ErrSandbox, err), fe.Fix())
		}
		return nil, fmt.Errorf("%w: %w", ErrSandbox, err)
	}
	return l, nil
}

// trampolineError is the cause when the trampoline of a sandboxed process
// failed before the tool ran (exit status sandbox.TrampolineFailed and its
// line on stderr), else nil.
func trampolineError(l *sandbox.Launch, code int, stderr []byte) error {
	if l == nil || !l.Enforced || code != sandbox.TrampolineFailed {
		return nil
	}
	i := bytes.LastIndex(stderr, []byte(sandbox.FailurePrefix))
	if i < 0 {
		return nil
	}
	line, _, _ := bytes.Cut(stderr[i+len(sandbox.FailurePrefix):], []byte("\n"))
	return withFix(fmt.Errorf("%w: the process could not be confined: %s", ErrSandbox, line),
		"set sandbox = false in the entry to run it unconfined, or report this with the line above")
}

// Denied returns the refusal of spec's sandbox that res shows (see
// sandbox.Policy.Explain), nil when none: a caller turns it into an error
// outcome naming the rule to add. root is the request's context.root.
func Denied(spec *Spec, root string, res *Result) *sandbox.Denial {
	if spec == nil || res == nil {
		return nil
	}
	return spec.Sandbox.Explain(root, os.Getenv("HOME"), res.StderrTail, res.Stdout)
}
