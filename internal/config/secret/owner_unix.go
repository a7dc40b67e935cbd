//go:build unix

package secret

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// checkOwner refuses a file that does not belong to the user running
// toolhost.
func checkOwner(st fs.FileInfo) error {
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	if uid := os.Getuid(); int(sys.Uid) != uid {
		return fmt.Errorf("belongs to uid %d, not to you (uid %d): %w", sys.Uid, uid, ErrPermissions)
	}
	return nil
}
