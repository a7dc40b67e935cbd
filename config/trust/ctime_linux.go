package trust

import (
	"io/fs"
	"syscall"
	"time"
)

// changeTime returns fi's inode change time (ctime), zero when unknown.
func changeTime(fi fs.FileInfo) time.Time {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return time.Unix(st.Ctim.Unix())
	}
	return time.Time{}
}
