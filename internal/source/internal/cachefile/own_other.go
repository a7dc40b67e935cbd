//go:build !unix

package cachefile

import "io/fs"

// openNoFollow is zero where O_NOFOLLOW and O_NONBLOCK do not exist. The
// fstat check still refuses anything but a regular file.
const openNoFollow = 0

// ownedByUs reports true: ownership is not checked on this system.
func ownedByUs(fs.FileInfo) bool { return true }
