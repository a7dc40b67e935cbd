//go:build !linux

package pipebuf

import (
	"errors"
	"io"
	"os"
	"runtime"
)

// Size is the buffer Widen would ask for on Linux.
const Size = 1 << 20

// Widen does nothing outside Linux. It returns 0.
func Widen(io.Writer) int { return 0 }

// SizeOf reports that pipe sizes are Linux only.
func SizeOf(*os.File) (int, error) {
	return 0, errors.New("pipe sizes are Linux only, not " + runtime.GOOS)
}
