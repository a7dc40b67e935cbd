package cli

import (
	"testing"
)

// TestListFitsTerminal: on a terminal, list cuts each description to its
// first sentence and to the terminal's width (here $COLUMNS: a new
// pseudo-terminal has no size); --wide and a pipe print it whole.
func TestListFitsTerminal(t *testing.T) {
	const summary = "Greet someone by name, politely. It also shouts when asked to, and can greet root after asking whether that is wise."
	dir := workspace(t, "[tools.greet]\ncommand = [{{exe}}, \"greet-desc\"]\n")
	env := []string{"NO_COLOR=1", "COLUMNS=30", "FAKE_SUMMARY=" + summary}
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"first sentence, cut", []string{"list"}, "NAME   DESCRIPTION\ngreet  Greet someone by name,…\n"},
		{"wide", []string{"list", "--wide"}, "NAME   DESCRIPTION\ngreet  " + summary + "\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, code := runOnTerminal(t, dir, env, "", append([]string{"--no-cache"}, tt.args...)...)
			out = withoutProgress(out)
			if code != 0 || out != tt.want {
				t.Errorf("exit %d, terminal mismatch (-want +got):\n-%q\n+%q", code, tt.want, out)
			}
		})
	}
	t.Setenv("FAKE_SUMMARY", summary)
	if r := runIn(t, dir, "", nil, "--no-cache", "list"); r.code != 0 || r.stdout != "NAME   DESCRIPTION\ngreet  "+summary+"\n" {
		t.Errorf("list to a pipe: exit %d, stdout %q; want the summary whole", r.code, r.stdout)
	}
}
