// Package sandbox confines one tool process with the operating system
// (Landlock on Linux) to the access policy of its entry, and compiles that
// policy to the JP assistant's AccessPolicy for the request's
// context.access.
//
// The host is never restricted. [Prepare] turns a [Policy] into a
// [Launch]: the host compiles the rules, creates the Landlock ruleset
// (which restricts nothing) and starts its own executable instead of the
// tool, passing it the ruleset as fd 3 and [ExecEnv]; that process (the
// trampoline, package trampoline) restricts itself in its init, sets its
// resource limits and execs the tool, which inherits the restriction (and
// so does everything it starts):
//
//	l, err := sandbox.Prepare(policy, path, root, env, keep) // host
//	cmd := exec.Command(l.Path, argv[1:]...)                // l.Path is this executable
//	cmd.Env, cmd.ExtraFiles = l.Env, l.Files                // minimal env; the ruleset
//	defer l.Cleanup()                                       // the ruleset, the private TMPDIR
//
// # The trampoline
//
// Every program that imports this package (toolhost, its tests, a Go
// program embedding the resolver) acts as the trampoline when started with
// [ExecEnv] set: the check runs in package trampoline's init, which imports
// only syscall so that it runs before the program's other packages are
// initialised; an embedding program has nothing to call. A process started
// without [ExecEnv] pays one environment lookup.
//
// # Flow
//
//	config access.fs/net/env + sandbox → Policy → Compile (paths, ports) → ruleset fd → trampoline → landlock_restrict_self → exec(tool)
package sandbox
