//go:build !linux

package sandbox

import (
	"errors"
	"os"
	"runtime"

	"github.com/toolhost/toolhost/invoke/sandbox/trampoline"
)

// Exit status and stderr prefix of a failed trampoline.
const (
	TrampolineFailed = trampoline.Failed
	FailurePrefix    = trampoline.FailurePrefix
)

func kernelABI() int { return 0 }

func noLandlock() string {
	return runtime.GOOS + " has no Landlock; toolhost's OS sandbox is Linux only"
}

func selfExe() (string, error) { return "", errors.New("no trampoline on " + runtime.GOOS) }

func ruleset(*Plan) (*os.File, uint32, error) {
	return nil, 0, errors.New("no Landlock on " + runtime.GOOS)
}
