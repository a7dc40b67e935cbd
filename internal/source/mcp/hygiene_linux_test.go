package mcp

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/toolhost/toolhost/internal/invoke"
	"github.com/toolhost/toolhost/internal/invoke/faketool"
)

// TestServerInheritsNothing: a stdio server is started as every tool
// process is: no TOOLHOST_* variable of toolhost's environment reaches
// it (its token above all), nor a descriptor toolhost inherited without
// close-on-exec (a secret file, a terminal). The host's own mark of the
// process, its CallEnv token, is the one it has.
func TestServerInheritsNothing(t *testing.T) {
	t.Setenv("TOOLHOST_TOKEN", "the-bearer-token")
	secret := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(secret, []byte("hunter2"), 0o600); err != nil {
		t.Fatal(err)
	}
	fd, err := syscall.Open(secret, syscall.O_RDONLY, 0) // no O_CLOEXEC: as a parent leaves one
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Close(fd) })
	_, tty := faketool.OpenPTY(t)
	ttyFD, err := syscall.Dup(int(tty.Fd()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Close(ttyFD) })
	ttyName, _ := os.Readlink("/proc/self/fd/" + strconv.Itoa(ttyFD))

	s := newSource(t, fakeSpec(t, "basic", "basic"), nil)
	res, err := s.Call(t.Context(), "inherited", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(textOf(res), "\n") {
		if strings.HasPrefix(line, "TOOLHOST_") && !strings.HasPrefix(line, invoke.CallEnv+"=") || strings.HasSuffix(line, " "+secret) || strings.HasSuffix(line, " "+ttyName) {
			t.Errorf("the server inherited %s", line)
		}
	}
}
