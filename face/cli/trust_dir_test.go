package cli

import (
	"os"
	"path/filepath"
	"testing"
)

// TestTrustNoSuchDirectory: trust names a missing or non-directory DIR as
// such, not as a directory without configuration.
func TestTrustNoSuchDirectory(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "nonexistent")
	for _, tt := range []struct {
		arg, stderr string
	}{
		{missing, "toolhost: trust: directory " + missing + " does not exist: give a workspace's directory\n"},
		{file, "toolhost: trust: " + file + " is not a directory: give a workspace's directory\n"},
		{dir, "toolhost: trust: no .config/toolhost/*.toml at or above " + dir + ": nothing to trust\n"},
	} {
		r := runIn(t, dir, "", nil, "trust", tt.arg)
		if r.code != ExitFailure || r.stdout != "" || r.stderr != tt.stderr {
			t.Errorf("trust %s: exit %d, stdout %q, stderr %q; want %d, \"\", %q", tt.arg, r.code, r.stdout, r.stderr, ExitFailure, tt.stderr)
		}
	}
}
