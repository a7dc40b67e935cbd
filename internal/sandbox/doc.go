// Package sandbox confines one tool process with the operating system
// (Landlock on Linux) to the access policy of its entry, and compiles that
// policy to the JP assistant's AccessPolicy for the request's
// context.access.
//
// The host is never restricted. [Prepare] turns a [Policy] into a
// [Launch]: the host starts its own executable instead of the tool, with
// the rules in one environment variable; that process (the trampoline)
// restricts itself in [init], sets its resource limits and execs the tool,
// which inherits the restriction (and so does everything it starts):
//
//	l, err := sandbox.Prepare(policy, root, path, env) // host
//	cmd := exec.Command(l.Path, argv[1:]...)         // l.Path is this executable
//	cmd.Env = l.Env                                   // minimal, plus the rules
//	defer l.Cleanup()                                 // the private TMPDIR
//
// # The trampoline
//
// Every program that imports this package (toolhost, its tests, a Go
// program embedding the resolver) acts as the trampoline when started with
// [ExecEnv] set: the check runs in this package's init, before main and
// before the init of any package that imports it, so an embedding program
// has nothing to call. A process started without [ExecEnv] pays one
// environment lookup.
//
// # Flow
//
//	config access.fs/net/env + sandbox → Policy → Compile (paths, ports) → Prepare → trampoline → Landlock → exec(tool)
package sandbox
