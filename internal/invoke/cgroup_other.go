//go:build !linux

package invoke

import (
	"os/exec"
	"time"
)

// Per-call cgroups are Linux's. Elsewhere a call is followed by its
// process group alone.

// cgroupHost is never made here.
type cgroupHost struct{}

func newCallLeaf() *leaf         { return nil }
func disableCgroups(string)      {}
func (l *leaf) attach(*exec.Cmd) {}
func (l *leaf) remove()          {}
func (l *leaf) kill()            {}

func (l *leaf) end(token string, _ time.Duration) { endEscaped(token) }
