package binary

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/internal/invoke/faketool"
	"github.com/toolhost/toolhost/internal/invoke/sandbox"
)

// TestProbeChangesNothing: asking a binary for its schema or for
// format_arguments runs it read-only, whatever its entry's access: a plain
// command that takes the schema request for a call (touch X) changes
// nothing, and its problem names parameters = {}; a binary that writes
// while formatting cannot.
func TestProbeChangesNothing(t *testing.T) {
	if sandbox.ABI() < 6 {
		t.Skipf("Landlock ABI %d on this kernel; this test needs 6 (Linux 6.12)", sandbox.ABI())
	}
	for _, access := range []string{"", "sandbox = false\n", "sandbox = true\n", "access.fs = [{path = \".\", write = true}]\n"} {
		t.Run(strings.TrimSpace(access), func(t *testing.T) {
			access := access
			root := t.TempDir()
			touched, formatted := filepath.Join(root, "X"), filepath.Join(root, "formatted")
			access += fmt.Sprintf("env = { %s = \"1\" }\n", faketool.Env) // the profile clears the environment
			cfg := parse(t, fmt.Sprintf("[tools.touch]\ncommand = [%q, \"plain-touch\", %q]\n%s\n[tools.w]\ncommand = [%q, \"format-writes\", %q]\n%s",
				exe(t), touched, access, exe(t), formatted, access))
			c, err := newCatalog(t.Context(), cfg, &Options{Root: root})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(touched); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the schema request of touch created X (stat: %v)", err)
			}
			var problem string
			for _, p := range c.Report().Errors() {
				if p.Tool == "touch" {
					problem = p.Fix
				}
			}
			if want := "\nor, for a command that takes no arguments, parameters = {} in [tools.touch]\n"; !strings.Contains(problem, want) {
				t.Errorf("fix of touch = %q, want it to hold %q", problem, want)
			}
			if text, err := c.Format(t.Context(), "w", map[string]any{}); err != nil || text != "w()" {
				t.Errorf("Format = %q, %v; want the host's rendering w(): the binary could not write (%v)", text, err, c.Report().Errors())
			}
			if _, err := os.Stat(formatted); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("format_arguments wrote its file (stat: %v)", err)
			}
		})
	}
}
