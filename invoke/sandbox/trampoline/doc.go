// Package trampoline is the child half of the OS sandbox: a process
// started with [Env] set restricts itself with the Landlock ruleset whose
// file descriptor the host passed it, and execs the tool. It runs in this
// package's init.
//
// It imports nothing but syscall, so that the Go runtime initialises it
// before the packages of the program it is part of (the order is by import
// path among the packages whose imports are ready; every third-party
// package waits for fmt or os): a sandboxed process pays for starting the
// runtime, not for the program's own initialisation. The host did the
// rest (package sandbox): it compiled the rules, created the ruleset
// (landlock_create_ruleset and landlock_add_rule need no privilege and
// restrict nothing), filtered the environment and made the private
// TMPDIR.
//
//	host: ruleset fd → ExtraFiles[0] (fd 3), Env="3 FLAGS NOCORE PROCSELF /path/to/tool"
//	child: init → add /proc/self → prctl(NO_NEW_PRIVS) → landlock_restrict_self(3) → close(3) → execve(tool, argv, env − Env)
package trampoline

// Env is the environment variable that makes a process the trampoline:
// "FD FLAGS NOCORE PROCSELF PATH": the ruleset's file descriptor (-1:
// none), landlock_restrict_self's flags, 1 to disable core dumps, the
// rights to grant on the process's own /proc/self (0: none; only the
// child can name it), and the tool's executable. The trampoline removes it before it execs the tool.
const Env = "TOOLHOST_SANDBOX_EXEC"

// Failed is the exit status of a trampoline that could not confine itself
// or exec the tool; its stderr then holds one line starting with
// [FailurePrefix].
const Failed = 125

// FailurePrefix starts the trampoline's line on stderr when it fails.
const FailurePrefix = "toolhost sandbox: "
