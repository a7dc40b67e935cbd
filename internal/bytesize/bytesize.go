// Package bytesize writes a number of bytes as people read it.
package bytesize

import (
	"fmt"
	"strconv"
	"strings"
)

// Format returns n as "512 B", "64 KiB", "1.5 KiB" or "16 MiB": one
// decimal at most, and none when it is 0.
func Format(n int64) string {
	unit, div := "MiB", float64(1<<20)
	switch {
	case n < 1<<10:
		return strconv.FormatInt(n, 10) + " B"
	case n < 1<<20:
		unit, div = "KiB", 1<<10
	}
	return strings.TrimSuffix(fmt.Sprintf("%.1f", float64(n)/div), ".0") + " " + unit
}
