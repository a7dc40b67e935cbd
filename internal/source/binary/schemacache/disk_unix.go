//go:build unix

package schemacache

import (
	"io/fs"
	"os"
	"syscall"
)

// ownedByUs reports whether fi belongs to the current user.
func ownedByUs(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return !ok || int(st.Uid) == os.Geteuid()
}
