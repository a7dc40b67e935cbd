package mcp

import (
	"os"
	"testing"
)

// TestSpecKeyConfinement: a spec's confinement is part of its listing
// cache key; equal specs have equal keys.
func TestSpecKeyConfinement(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	key := func(confinement string) string {
		t.Helper()
		k, ok := specKey(&Spec{Name: "fs", Command: exe, Args: []string{"."}, Confinement: confinement})
		if !ok {
			t.Fatalf("specKey(%q) not ok", confinement)
		}
		return k
	}
	unconfined, sandboxed, granted := key(""), key(`{"M":1}`), key(`{"M":1,"FS":[{"Path":"~/.npm"}]}`)
	if unconfined == sandboxed || sandboxed == granted || unconfined == granted {
		t.Errorf("keys of different confinements coincide: %s, %s, %s", unconfined, sandboxed, granted)
	}
	if again := key(`{"M":1}`); again != sandboxed {
		t.Errorf("the same spec's key changed: %s, then %s", sandboxed, again)
	}
}
