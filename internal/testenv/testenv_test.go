package testenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestIsolate: after Isolate, the user's directories as Go and the XDG
// rules find them are all under the new home, the go command's telemetry
// is off, and the go command still reports the build cache it reported
// before.
func TestIsolate(t *testing.T) {
	before, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		t.Skipf("no go command: %v", err)
	}
	for _, v := range append([]string{"HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME"}, goVars...) {
		t.Setenv(v, os.Getenv(v)) // restored at the end
	}
	home, cleanup, err := Isolate()
	if err != nil {
		t.Fatal(err)
	}
	config, _ := os.UserConfigDir()
	cache, _ := os.UserCacheDir()
	userHome, _ := os.UserHomeDir()
	for _, tt := range []struct{ name, got, want string }{
		{"HOME", userHome, home},
		{"os.UserConfigDir", config, filepath.Join(home, "config")},
		{"os.UserCacheDir", cache, filepath.Join(home, "cache")},
		{"XDG_STATE_HOME", os.Getenv("XDG_STATE_HOME"), filepath.Join(home, "state")},
		{"XDG_DATA_HOME", os.Getenv("XDG_DATA_HOME"), filepath.Join(home, "data")},
	} {
		if tt.got != tt.want {
			t.Errorf("%s = %q, want %q", tt.name, tt.got, tt.want)
		}
	}
	if out, err := exec.Command("go", "env", "GOTELEMETRY").Output(); err != nil || string(out) != "off\n" {
		t.Errorf("go env GOTELEMETRY after Isolate = %q (%v), want off: its uploader would outlive the tests", out, err)
	}
	after, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil || string(after) != string(before) {
		t.Errorf("go env GOCACHE after Isolate = %q (%v), want %q", after, err, before)
	}
	if strings.HasPrefix(os.Getenv("GOCACHE"), home) {
		t.Errorf("GOCACHE %q is under the new home", os.Getenv("GOCACHE"))
	}
	cleanup()
	if _, err := os.Stat(home); !os.IsNotExist(err) {
		t.Errorf("after cleanup, stat %s: %v, want it gone", home, err)
	}
}
