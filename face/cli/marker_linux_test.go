package cli

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// runMarker tells whether a fake tool ran: the tool opens the marker file
// (see fakeTouch), and an inotify watch sees the open. A read is what a
// schema request under the read-only probe may still do, where an
// appended line would be refused.
type runMarker struct {
	path string
	fd   int
	seen bool
}

func newRunMarker(t *testing.T) *runMarker {
	t.Helper()
	path := filepath.Join(t.TempDir(), "ran")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	fd, err := syscall.InotifyInit1(syscall.IN_NONBLOCK | syscall.IN_CLOEXEC)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Close(fd) })
	if _, err := syscall.InotifyAddWatch(fd, path, syscall.IN_OPEN); err != nil {
		t.Fatal(err)
	}
	return &runMarker{path: path, fd: fd}
}

// ran reports whether the marker was opened since it was made or reset.
func (m *runMarker) ran() bool {
	buf := make([]byte, 4096)
	for {
		n, _ := syscall.Read(m.fd, buf)
		if n <= 0 {
			return m.seen
		}
		m.seen = true
	}
}

// reset forgets the opens seen so far.
func (m *runMarker) reset() {
	m.ran()
	m.seen = false
}
