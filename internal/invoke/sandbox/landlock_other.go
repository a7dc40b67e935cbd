//go:build !linux

package sandbox

import (
	"errors"
	"os"
	"runtime"
	"syscall"
)

func kernelABI() int { return 0 }

func noLandlock() string {
	return runtime.GOOS + " has no Landlock; toolhost's OS sandbox is Linux only"
}

func ruleset(*Plan) (*os.File, uint32, error) {
	return nil, 0, errors.New("no Landlock on " + runtime.GOOS)
}

// Start calls start: without Landlock there is nothing to confine.
func (l *Launch) Start(_ *syscall.SysProcAttr, start func() (pid int, err error)) error {
	_, err := start()
	return err
}

// startThread is Linux only.
type startThread struct{}

func earlyThread(filterKind, bool) *startThread { return nil }

func (l *Launch) endThread() {}

// supervisor is Linux only.
type supervisor struct{}

func (l *Launch) stopSupervisors() {}

func supervised() bool { return false }

func probeRulesets(*Plan, string, string) (read, write *os.File, err error) {
	return nil, nil, errors.New("no Landlock on " + runtime.GOOS)
}
