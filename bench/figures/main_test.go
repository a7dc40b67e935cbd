package figures

import (
	"os"
	"testing"
)

// TestMain removes the fixtures (binaries, workspaces, caches) that the
// benchmarks built, so that repeated runs do not fill the temporary
// directory.
func TestMain(m *testing.M) {
	code := m.Run()
	if fix != nil {
		os.RemoveAll(fix.dir)
	}
	os.Exit(code)
}
