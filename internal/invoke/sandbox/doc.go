// Package sandbox confines one tool process with the operating system
// (Landlock on Linux) to the access policy of its entry, and compiles that
// policy to the JP assistant's AccessPolicy for the request's
// context.access.
//
// The host process is never restricted. [Prepare] turns a [Policy] into a
// [Launch]: the host compiles the rules, creates the Landlock ruleset
// (which restricts nothing), filters the environment and makes the
// private TMPDIR. [Launch.Start] then starts the tool from a throwaway
// thread. Landlock domains and no_new_privs belong to a thread, and a
// child inherits those of the thread that forks it. So Start confines a
// thread of its own, never the main one. It uses the ruleset and a seccomp
// filter for what Landlock does not check: sockets but TCP and UDP, setuid
// bits, owners, extended attributes, keyrings. It forks and execs the tool
// there, and lets the Go runtime end that thread. The child is
// started traced and stops before the tool's first instruction. The
// thread collects the stop, sets RLIMIT_CORE 0 and ends, and only then
// does the kernel resume the tool. So the tool never shares its domain
// with a live host thread:
//
//	l, err := sandbox.Prepare(policy, path, root, env, keep) // host
//	defer l.Cleanup()                                       // the ruleset, the private TMPDIR
//	cmd := exec.Command(path, argv[1:]...)
//	cmd.Env, cmd.SysProcAttr = l.Env, &syscall.SysProcAttr{Setpgid: true}
//	cmd.Stdin, cmd.Stdout = stdinFile, stdoutPipe // no file opened on the confined thread
//	err = l.Start(cmd.SysProcAttr, func() (int, error) { err := cmd.Start(); … return cmd.Process.Pid, err })
//
// Landlock has no deny: a right to create entries in the workspace root
// would hold in .git too. So where a plan restricts files, a second
// filter sends each call that creates, renames or deletes an entry, or
// changes a mode, to a supervisor in the host (supervise_linux.go, guard.go).
// It makes the call itself for an entry of the root, by name, but never
// .git or .config. It changes a mode only where a rule grants update.
// Every other call continues, and Landlock decides. [Launch.Cleanup]
// stops it.
//
// Whatever the rules say, no grant covers toolhost's own directories
// (owndirs.go). Each rule's resolution is pinned, to the target its
// workspace's trust record holds ([tool.AccessFS.Targets]) or else for the
// process, and a call whose rule resolves elsewhere is refused (pin.go).
// [Policy.Probe]
// is the read-only, no-network policy of schema and format_arguments
// requests.
//
// An embedding program has nothing to set up. The tool gets no /proc, not
// even its own /proc/self (the host cannot name it before the fork): see
// docs/security.md.
//
// Landlock filters TCP ports, not hosts. A net rule whose host is a name
// is enforced by the egress proxy (package egress). Prepare registers the
// launch with it, and grants TCP connect to the proxy's port instead of
// the rule's. It points the tool's proxy variables there. [Launch.Refused]
// names the first connection the proxy refused.
//
// # Flow
//
//	config access.fs/net/env + sandbox → Policy → Compile (paths, ports) → ruleset fd → confined thread → fork, exec(tool), traced stop → thread ends → tool runs
package sandbox
