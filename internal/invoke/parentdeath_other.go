//go:build !linux

package invoke

import "syscall"

// dieWithHost does nothing where there is no parent-death signal. A
// killed host leaves its tools running there.
func dieWithHost(*syscall.SysProcAttr) {}
