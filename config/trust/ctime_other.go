//go:build !linux

package trust

import (
	"io/fs"
	"time"
)

// changeTime is zero here. The modification time, which Revoke sets, is
// when a record was revoked.
func changeTime(fs.FileInfo) time.Time { return time.Time{} }
