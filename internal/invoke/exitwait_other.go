//go:build !linux

package invoke

// awaitExit does nothing: Wait blocks.
func awaitExit(int) {}
