//go:build unix

package persist

import "syscall"

// openNoFollow makes opening a cache file fail on a symlink and not wait
// for a writer on a FIFO.
const openNoFollow = syscall.O_NOFOLLOW | syscall.O_NONBLOCK
