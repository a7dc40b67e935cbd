// Package invoke is the one place that starts tool processes. It renders a
// command's templates and runs it with one request on stdin. It bounds its
// time and output, and returns what the process left. Reading that is the
// binaries' business (internal/source/binary/read.go). Is stdout an
// outcome, a schema answer? [Run] starts a one-shot process. [Start]
// starts a long-lived one that reads requests a line at a time (a
// pool's). [Open] starts one whose stdin and stdout the caller speaks over
// (an MCP stdio server). All three go through one spawner.
//
//	spec := &invoke.Spec{Command: []string{"bin/fs", "--root", "my dir"}} // argv tokens, as config.SplitWords gives them
//	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
//	defer cancel()
//	res, err := invoke.Run(ctx, spec, req) // err: not found, not executable, timeout, output too large
//	if err != nil {
//		return err
//	}
//	// res.Stdout, res.StderrTail, res.ExitCode: the resolver reads them.
//
// Flow: TOML command → config.SplitWords → [Spec] → [Render] → [Run] (stdin: request) → [Result].
//
// # What a process gets
//
// Every process starts the same way, whoever asks for it:
//
//   - Its environment is the host's without the host's own variables.
//     Those are every TOOLHOST_* one, the token of serve --http first
//     ([HostEnvPrefix]). With [Spec.ClearEnv] it is only PATH and HOME.
//     Then comes the entry's [Spec.Env]. Then comes what the host sets for
//     the process: [CallEnv], [tool.LongLivedEnv], the trace context.
//     Under the sandbox, only what its policy keeps.
//   - Its descriptors are 0, 1 and 2, nothing else. Before each start
//     every descriptor of the host from 3 up is made close-on-exec. On
//     Linux that is one close_range call. So one the host inherited
//     without the flag, such as a secret file or a terminal, does not
//     reach the tool.
//   - Its argv never holds a secret answer ([Spec.SecretAnswers]).
//   - It runs in a process group of its own. Where the host may make one,
//     it runs in a cgroup v2 of its own. [Spec.Sandbox] confines it.
//   - It dies with the host. Unconfined, it gets SIGKILL as its
//     parent-death signal. It is forked from one thread that lives as
//     long as the host. The signal follows the thread that forked, and the
//     Go runtime ends threads. A sandboxed process cannot have it. It is
//     forked from a throwaway thread, whose end would fire the signal at
//     once. The host may be killed (SIGKILL, the OOM killer) while such a
//     process, or any tool's descendant, still runs. The host's watchdog
//     then kills it at once. The watchdog is a process of the host's own
//     binary that waits for the host's end. Only the toolhost command has
//     one (see [EnableSubreaper]). It finds the process by its cgroup or
//     its [CallEnv] token. Failing that, the next host's first call in the
//     same cgroup kills it, as it sweeps the cgroup leaves of dead hosts.
//
// # Processes
//
// [Run] starts the binary directly, with no shell unless [Spec.Shell]. It
// runs in its own process group, in context.root or [Spec.Dir]. Run writes
// the request JSON to its stdin and closes it. A binary may be open for
// writing (ETXTBSY) because it is being rebuilt. It is tried again for
// about 0.6s before that is an error. When the context is done the whole
// group gets SIGTERM, then SIGKILL after [Spec.Grace]. A descendant that
// keeps stdout open cannot hang the call (os/exec WaitDelay). The group is
// killed when Run returns. On Linux each run also starts in a cgroup v2 of
// its own where the host may make one. The cgroup is a child of the host's
// cgroup, entered with clone3 CLONE_INTO_CGROUP. It is killed whole with
// cgroup.kill when Run returns. So a descendant that left the group is not
// left behind either. That holds whether it left by setsid, a double fork,
// a new name or an empty environment. Elsewhere the ones still carrying
// the run's [CallEnv] token are killed. docs/protocol.md, "Nothing
// outlives its call", says what is caught where.
//
// stdout is capped at [Spec.MaxStdout], 16 MiB by default. A breach kills
// the group and is [ErrOutputTooLarge]. Of stderr only the last 64 KiB are
// kept.
//
// A long-lived process ([Start], [Open]) ends in one stop order,
// [Process.Stop]. Its stdin is closed, so that it finishes and exits.
// After [Spec.Grace] its group gets SIGTERM. After another [Spec.Grace]
// the group gets SIGKILL, and so does everything in its cgroup.
//
// # Templates
//
// JP's argv templates are rendered per token. {{context}} and {{tool}} are
// the request's objects as compact JSON. {{tool.arguments.x}} is a value.
// It is bare when scalar, JSON when composite, and null when missing. See
// [Render] and [Templates].
//
// Values come from a model and are hostile. So [Run] applies two rules:
//
//   - With [Spec.Shell] no value enters the script. Each template becomes
//     a positional parameter reference, and the values follow as
//     parameters: /bin/sh -c 'grep -rn "${1}" .' sh VALUE. A template
//     inside `…`, ${…}, $((…)) or a here-document is refused
//     ([ErrShellTemplate]).
//   - A value may start an argv element (a shell word) with "-". It is
//     then refused with [ErrOptionValue], an [*OptionError] naming the
//     argument. A literal "--" before it, or [Spec.AllowOption] naming
//     it, lets it through.
//
// [CheckArguments] applies them without starting anything.
//
// # Errors
//
// A process that ran is a [Result], whatever its exit status. An [*Error]
// means no answer could be had. It wraps one of [ErrNotFound],
// [ErrNotExecutable], [ErrTimeout], [ErrOutputTooLarge], [ErrOptionValue],
// [ErrShellTemplate] or a context error. Its message is one line with the
// cause and the last lines of stderr. Its Fix field says what the user can
// do. Faces show it on a line of its own:
//
//	run "bin/x": run: timed out after 30s; the process group was killed: stderr: waiting for lock
//
// The resolver uses the same type for the answers it reads and finds
// wanting. Examples are a schema answer that is not JSON, or a non-zero
// exit.
//
// [Executable] says which file a [Spec] would run, without running it. The
// resolver's persistent cache keys schema answers on it.
package invoke
