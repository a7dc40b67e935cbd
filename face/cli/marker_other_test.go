//go:build !linux

package cli

import (
	"os"
	"path/filepath"
	"testing"
)

// runMarker tells whether a fake tool ran, by the line it appends (see
// fakeTouch); without inotify a run under a read-only probe is not seen.
type runMarker struct{ path string }

func newRunMarker(t *testing.T) *runMarker {
	return &runMarker{path: filepath.Join(t.TempDir(), "ran")}
}

func (m *runMarker) ran() bool {
	fi, err := os.Stat(m.path)
	return err == nil && fi.Size() > 0
}

func (m *runMarker) reset() { os.Remove(m.path) }
