//go:build !linux

package sandbox

import (
	"errors"
	"runtime"
)

// TrampolineFailed is the exit status of a trampoline that could not
// confine itself; there is no trampoline on this OS.
const TrampolineFailed = 125

// FailurePrefix starts the trampoline's line on stderr when it fails.
const FailurePrefix = "toolhost sandbox: "

func kernelABI() int { return 0 }

func noLandlock() string {
	return runtime.GOOS + " has no Landlock; toolhost's OS sandbox is Linux only"
}

func selfExe() (string, error) { return "", errors.New("no trampoline on " + runtime.GOOS) }
