// Package pipebuf widens the kernel's buffer of a pipe that a process
// writes large messages to.
//
// A Linux pipe holds 64 KiB by default. A writer of a larger message then
// waits for the reader once per 64 KiB. Each wait is a switch to the
// reader and back. `toolhost serve` answers tools/list of 1000 tools with
// 562 KiB on stdout: nine such waits. With a buffer of 1 MiB the whole
// answer is written at once, and the reader wakes once.
//
//	pipebuf.Widen(os.Stdout) // before the first large write
//
// # Trade-offs
//
// Widen only asks. The kernel refuses an unprivileged process a size
// above /proc/sys/fs/pipe-max-size, 1 MiB by default. It refuses any size
// once the user's pipes hold too many pages. Widen
// then leaves the pipe as it was. The buffer's pages are taken only as
// data waits in them. A widened pipe lets a writer run up to 1 MiB ahead
// of a slow reader. Outside Linux, Widen does nothing.
package pipebuf
