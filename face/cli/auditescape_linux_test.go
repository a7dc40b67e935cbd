package cli

import (
	"strings"
	"testing"
	"time"

	"github.com/toolhost/toolhost/audit"
)

// TestAuditEscapesOnTerminal: on a terminal, audit shows every field of
// the log that came from outside (a client's name and version, the face,
// the tool, who approved, the workspace) with its controls escaped, and
// its tabs and newlines too, so that none can act on the terminal, break
// its row or forge a column.
func TestAuditEscapesOnTerminal(t *testing.T) {
	path := writeAuditLog(t, &audit.Record{
		Time: time.Now(), Face: "m\x1b[2J", Client: audit.Client{Name: "evil\x1b]0;pwned\x07", Version: "1\tsuccess"},
		Workspace: "/w/\x1b]52;c;ZXZpbA==\x07", Tool: "t\u009b31m", Approval: audit.Approval{Decision: audit.DecisionApproved, By: "x\ny"},
		Duration: time.Millisecond, Outcome: audit.OutcomeSuccess,
	})
	out, code := runOnTerminal(t, t.TempDir(), []string{"NO_COLOR=1"}, "", "audit", "--file", path)
	if code != 0 || strings.ContainsAny(out, "\x1b\x07\t") || strings.Contains(out, "\u009b") || strings.Count(out, "\n") != 2 {
		t.Errorf("audit on a terminal: exit %d, want two lines without control sequences or tabs, got %q", code, out)
	}
	for _, w := range []string{`m\x1b[2J`, `evil\x1b]0;pwned\x07/1\tsuccess`, `/w/\x1b]52;c;ZXZpbA==\x07`, `t\u009b31m`, `approved (x\ny)`} {
		if !strings.Contains(out, w) {
			t.Errorf("audit on a terminal: want %q in %q", w, out)
		}
	}
}
