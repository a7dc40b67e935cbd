//go:build !linux

package sandbox

// tempPattern is the os.MkdirTemp pattern of a call's private directory.
// Elsewhere than Linux no sweep removes what a killed host left.
func tempPattern() string { return "toolhost-call-" }

// sweepTempOnce does nothing elsewhere than Linux.
func sweepTempOnce(string) {}
