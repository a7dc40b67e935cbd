// Package testenv keeps a package's tests away from the files of the
// person who runs them.
//
// A test that starts toolhost, a tool or a browser would otherwise read
// the user's configuration and write into the user's audit log, caches
// and trust store. [Run] moves HOME and the XDG base directories to a
// fresh temporary directory for the whole test binary:
//
//	func TestMain(m *testing.M) { os.Exit(testenv.Run(m)) }
//
// The go command the tests start still finds its build and module caches.
package testenv

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// goVars are the go command's directories that default to places under
// HOME. [Isolate] pins them to their values before the move.
var goVars = []string{"GOCACHE", "GOMODCACHE", "GOPATH", "GOENV"}

// Run isolates the process with [Isolate], runs the tests and removes the
// temporary home. It returns m.Run's exit code, or 2 when the home could
// not be made. A TestMain may dispatch processes to a helper role
// (faketool.Start). It must do so before Run.
func Run(m *testing.M) int {
	_, cleanup, err := Isolate()
	if err != nil {
		fmt.Fprintln(os.Stderr, "testenv:", err)
		return 2
	}
	code := m.Run()
	cleanup()
	return code
}

// Isolate sets HOME to a fresh temporary directory. It sets
// XDG_CONFIG_HOME, XDG_STATE_HOME, XDG_CACHE_HOME and XDG_DATA_HOME to
// directories under it: config, state, cache, data. It unsets
// DBUS_SESSION_BUS_ADDRESS, the user's keyring. It creates only
// config/go/telemetry/mode, which turns the go command's telemetry off.
// XDG_RUNTIME_DIR is left alone. It holds sockets, not files that last.
// Before the move it pins GOCACHE, GOMODCACHE, GOPATH and GOENV to the go
// command's values. So a `go build` started by a test reuses the user's
// caches. It returns the new home and a function that removes it.
func Isolate() (home string, cleanup func(), err error) {
	pinGo()
	home, err = os.MkdirTemp("", "toolhost-test-home")
	if err != nil {
		return "", nil, fmt.Errorf("making a temporary home: %w", err)
	}
	// The go command a test starts would count its use under the new
	// config directory. It would start a telemetry uploader that outlives
	// the test binary and writes there after the cleanup. So it is off, as
	// `go telemetry off` sets it.
	telemetry := filepath.Join(home, "config", "go", "telemetry")
	if err := os.MkdirAll(telemetry, 0o755); err != nil {
		return "", nil, err
	}
	if err := os.WriteFile(filepath.Join(telemetry, "mode"), []byte("off"), 0o644); err != nil {
		return "", nil, err
	}
	// No session bus. toolhost keeps OAuth tokens in the keyring where it
	// can reach one (internal/oauth). A test's tokens must not land in the
	// user's.
	os.Unsetenv("DBUS_SESSION_BUS_ADDRESS")
	for _, kv := range [][2]string{
		{"HOME", home},
		{"XDG_CONFIG_HOME", filepath.Join(home, "config")},
		{"XDG_STATE_HOME", filepath.Join(home, "state")},
		{"XDG_CACHE_HOME", filepath.Join(home, "cache")},
		{"XDG_DATA_HOME", filepath.Join(home, "data")},
	} {
		os.Setenv(kv[0], kv[1])
	}
	return home, func() { removeAll(home) }, nil
}

// removeAll removes dir. It tries again for a moment while a process the
// tests started and did not wait for still writes into it.
func removeAll(dir string) {
	for range 10 {
		if os.RemoveAll(dir) == nil {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// pinGo sets the go command's directories that are unset in the
// environment to the values `go env` reports. Without the go command it
// does nothing. That happens for a test binary copied elsewhere.
func pinGo() {
	missing := false
	for _, v := range goVars {
		if os.Getenv(v) == "" {
			missing = true
		}
	}
	if !missing {
		return
	}
	out, err := exec.Command("go", append([]string{"env", "-json"}, goVars...)...).Output()
	if err != nil {
		return
	}
	var env map[string]string
	if json.Unmarshal(out, &env) != nil {
		return
	}
	for _, v := range goVars {
		if os.Getenv(v) == "" && env[v] != "" {
			os.Setenv(v, env[v])
		}
	}
}

// Exit ends a helper process with code, at once. A helper is a test binary
// playing a tool or a server for the tests. Built with -race, a process
// that ends with os.Exit(0) first sleeps a second for late race reports
// (GORACE's atexit_sleep_ms). That is a second on every stop of a helper,
// which the test waits for. A helper's races are still reported on its
// stderr as they happen.
func Exit(code int) { syscall.Exit(code) }
