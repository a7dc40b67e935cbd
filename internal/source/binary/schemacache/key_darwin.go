package schemacache

import (
	"io/fs"
	"syscall"
)

// sysStat returns the device, inode and status change time (ns) of fi.
func sysStat(fi fs.FileInfo) (dev, ino uint64, ctime int64) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, 0
	}
	return uint64(st.Dev), uint64(st.Ino), st.Ctimespec.Nano()
}
