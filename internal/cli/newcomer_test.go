package cli

import (
	"regexp"
	"strings"
	"testing"
)

// TestIdentityWording: the human identity says whose protocol 1.0 is, so
// that it does not read as the wire protocol tool binaries speak (1 or 2);
// the JSON field keeps its name and value (design §6).
func TestIdentityWording(t *testing.T) {
	r := run(t, tools, "identity")
	re := regexp.MustCompile(`(?m)^protocol_version  1\.0 \(Tool Discovery Protocol; tool binaries speak wire protocol 1 or 2\)$`)
	if r.code != 0 || !re.MatchString(r.stdout) {
		t.Errorf("identity: exit %d, stdout %q; want the protocol_version line to say whose it is", r.code, r.stdout)
	}
}

// TestCallNotesOnlyItsTool: a call prints the one note line only about the
// tool it calls (its own warnings); the warnings of other entries are
// list's and check's to report.
func TestCallNotesOnlyItsTool(t *testing.T) {
	dir := workspace(t, greetTOML+"self_describe = true\n[tools.greet.parameters.nme]\nsummary = \"A typo.\"\n"+
		"[tools.alpha]\ncommand = [{{exe}}, \"multi\"]\n")
	tests := []struct {
		args       []string
		wantStderr string
	}{
		{[]string{"call", "greet", "name=Ada"}, "toolhost: tool \"greet\" has 1 warning (run toolhost check for details)\n"},
		{[]string{"describe", "greet"}, "toolhost: tool \"greet\" has 1 warning (run toolhost check for details)\n"},
		{[]string{"call", "alpha"}, ""},
		{[]string{"format", "alpha"}, ""},
		{[]string{"list"}, "toolhost: 1 warning (run toolhost check for details)\n"},
	}
	for _, tt := range tests {
		r := runIn(t, dir, "", nil, tt.args...)
		if r.code != 0 || r.stderr != tt.wantStderr {
			t.Errorf("%s: exit %d, stderr %q; want 0 and %q", strings.Join(tt.args, " "), r.code, r.stderr, tt.wantStderr)
		}
	}
}
