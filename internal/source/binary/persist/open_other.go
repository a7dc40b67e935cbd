//go:build !unix

package persist

// openNoFollow is zero where O_NOFOLLOW and O_NONBLOCK do not exist. The
// fstat check still refuses anything but a regular file.
const openNoFollow = 0
