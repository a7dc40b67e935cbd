package cli

import (
	"reflect"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/internal/invoke/faketool"
)

// TestTerminalApproval: on a real terminal, `call` of a tool with run =
// "ask" shows the call as the tool renders it and asks y/N: y runs it
// once, Enter (the default, No) runs nothing.
func TestTerminalApproval(t *testing.T) {
	tests := []struct {
		name  string
		typed string
		code  int
		tail  string
		runs  []string
	}{
		{"approved", "y\n", 0, "appended hi\n", []string{"ran hi"}},
		{"declined by default", "\n", 1, "error: the user declined to run tool \"t\"; it did not run\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, marker := approvalWorkspace(t)
			out, code := runOnTerminalAfter(t, dir, []string{"NO_COLOR=1"}, "Run it? [y/N]", tt.typed, "call", "t")
			if code != tt.code || !strings.Contains(out, "  append \"hi\" to "+marker+"\n? Run it? [y/N] ") || !strings.HasSuffix(out, tt.tail) {
				t.Errorf("exit %d, terminal showed %q; want exit %d, the rendered call, then %q", code, out, tt.code, tt.tail)
			}
			if runs := faketool.Runs(t, marker); !reflect.DeepEqual(runs, tt.runs) {
				t.Errorf("the tool ran %q, want %q", runs, tt.runs)
			}
		})
	}
}
