package sandbox

import (
	"errors"
	"os"
	"strings"
	"syscall"
	"testing"
)

// TestConfineFailure: a thread that cannot be confined starts nothing,
// and the error says which step failed.
func TestConfineFailure(t *testing.T) {
	if ABI() == 0 {
		t.Skip("no Landlock on this kernel")
	}
	notRuleset, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer notRuleset.Close()
	l := &Launch{Enforced: true, rs: notRuleset}
	sys := &syscall.SysProcAttr{}
	started := false
	err = l.Start(sys, func() (int, error) { started = true; return 0, nil })
	if started {
		t.Fatal("start was called on a thread that is not confined")
	}
	if !errors.Is(err, ErrConfine) || !strings.HasPrefix(err.Error(), "the process could not be confined: landlock_restrict_self: ") {
		t.Fatalf("err = %v, want ErrConfine from landlock_restrict_self", err)
	}
}
