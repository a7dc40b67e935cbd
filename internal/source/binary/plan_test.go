package binary

import (
	"encoding/json"
	"testing"

	"github.com/toolhost/toolhost/internal/invoke"
)

// TestInvocationKey checks that the invocation key written without
// reflection is the JSON json.Marshal gives (it names schema cache files).
func TestInvocationKey(t *testing.T) {
	specs := []*invoke.Spec{
		{},
		{Command: []string{}, Env: map[string]string{}},
		{Command: []string{"bin/five07"}},
		{Command: []string{"python3", "tool.py", "--flag=1"}, Shell: true, Dir: "sub/dir", ClearEnv: true},
		{Command: []string{"t"}, Env: map[string]string{"B": "2", "A": "1", "PATH": "/usr/bin:/bin"}},
		{Command: []string{"a<b>&c"}},
		{Command: []string{`quote"back\slash`}, Dir: "tab\there"},
		{Command: []string{"héllo", "\u2028", "\xff"}},
		{Command: []string{"t"}, Env: map[string]string{"K\n": "v"}},
		{Command: []string{"t"}, Env: map[string]string{"K": "\x7f"}},
	}
	for _, s := range specs {
		want, err := json.Marshal(struct {
			Command  []string          `json:"command"`
			Shell    bool              `json:"shell"`
			Dir      string            `json:"dir"`
			Env      map[string]string `json:"env"`
			ClearEnv bool              `json:"clear_env"`
		}{s.Command, s.Shell, s.Dir, s.Env, s.ClearEnv})
		if err != nil {
			t.Fatal(err)
		}
		if got := invocationKey(s); got != string(want) {
			t.Errorf("invocationKey(%#v) mismatch:\nwant %s\ngot  %s", s, want, got)
		}
	}
}
