//go:build !linux

package cli

import "os"

// isTTY reports whether the character device f is a terminal. Where
// toolhost does not ask the terminal driver, every character device
// counts as one but the null device.
func isTTY(f *os.File) bool { return f.Name() != os.DevNull }

// termWidth returns the number of columns of the terminal f. Where
// toolhost does not ask the terminal driver, 0: it cannot tell.
func termWidth(f *os.File) int { return 0 }
