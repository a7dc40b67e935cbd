package invoke

import "syscall"

// Linux constants the syscall package lacks.
const (
	sysCloseRange         = 436    // close_range(2), the same number on every architecture
	closeRangeCloexecFlag = 1 << 2 // CLOSE_RANGE_CLOEXEC (Linux 5.11)
)

// closeRangeCloexec marks the descriptors from first up close-on-exec in
// one call.
func closeRangeCloexec(first uint) error {
	if _, _, e := syscall.RawSyscall(sysCloseRange, uintptr(first), uintptr(^uint32(0)), closeRangeCloexecFlag); e != 0 {
		return e
	}
	return nil
}
