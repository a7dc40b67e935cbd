package sandbox_test

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/invoke/faketool"
	"github.com/toolhost/toolhost/invoke/sandbox"
)

// trampoline runs the test binary as the trampoline with value as
// sandbox.ExecEnv.
func trampoline(t *testing.T, value string, env ...string) (stderr string, code int) {
	t.Helper()
	cmd := exec.Command(faketool.Exe(t))
	cmd.Env = append([]string{sandbox.ExecEnv + "=" + value}, env...)
	var buf bytes.Buffer
	cmd.Stderr = &buf
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return buf.String(), ee.ExitCode()
	}
	if err != nil {
		t.Fatal(err)
	}
	return buf.String(), 0
}

// TestTrampolineRunsFirst: the trampoline's init runs before any
// package outside the standard library is initialised, so a sandboxed
// process does not pay for the program's own start-up.
func TestTrampolineRunsFirst(t *testing.T) {
	if _, err := os.Stat("/bin/true"); err != nil {
		t.Skip("no /bin/true")
	}
	stderr, code := trampoline(t, "-1 0 1 0 /bin/true", "GODEBUG=inittrace=1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	inits := 0
	for _, line := range strings.Split(stderr, "\n") {
		pkg, ok := strings.CutPrefix(line, "init ")
		if !ok {
			continue
		}
		inits++
		if name, _, _ := strings.Cut(pkg, " "); strings.Contains(strings.SplitN(name, "/", 2)[0], ".") {
			t.Errorf("%s was initialised before the trampoline exec'd", name)
		}
	}
	if inits == 0 {
		t.Fatalf("no inittrace output: %q", stderr)
	}
}

func TestTrampolineFailures(t *testing.T) {
	tests := []struct{ value, want string }{
		{"garbage", "toolhost sandbox: malformed TOOLHOST_SANDBOX_EXEC\n"},
		{"-1 0 0 0 ", "toolhost sandbox: malformed TOOLHOST_SANDBOX_EXEC\n"},
		{"-1 0 0 0 /nonexistent/tool", "toolhost sandbox: exec /nonexistent/tool: no such file or directory\n"},
		{"99 0 0 0 /bin/true", ""},
	}
	for _, tt := range tests {
		stderr, code := trampoline(t, tt.value)
		if code != sandbox.TrampolineFailed {
			t.Errorf("%q: exit %d, want %d", tt.value, code, sandbox.TrampolineFailed)
		}
		if tt.value[0] == '9' { // fd 99 is not a ruleset: the kernel says which step
			if !strings.HasPrefix(stderr, "toolhost sandbox: landlock_restrict_self: ") {
				t.Errorf("%q: stderr %q", tt.value, stderr)
			}
			continue
		}
		if stderr != tt.want {
			t.Errorf("%q: stderr %q, want %q", tt.value, stderr, tt.want)
		}
	}
}
