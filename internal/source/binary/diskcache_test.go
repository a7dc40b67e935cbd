package binary

import (
	"os"
	"path/filepath"
	"testing"
)

// forgetResolutions removes the persisted resolutions of cacheDir, so that
// the next catalog resolves through the schema cache.
func forgetResolutions(t *testing.T, cacheDir string) {
	t.Helper()
	if err := os.RemoveAll(filepath.Join(cacheDir, "resolutions")); err != nil {
		t.Fatal(err)
	}
}
