//go:build unix

package trust

import (
	"io/fs"
	"os"
	"syscall"
)

// openNoFollow makes opening a record fail on a symbolic link. It also
// keeps the open from waiting for a writer on a FIFO.
const openNoFollow = syscall.O_NOFOLLOW | syscall.O_NONBLOCK

// ownedByUs reports whether fi belongs to the current user.
func ownedByUs(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return !ok || int(st.Uid) == os.Geteuid()
}
