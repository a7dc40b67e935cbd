package cli

import (
	"strings"
	"testing"
)

// TestServeBrowserFlags: --allow-execute on a non-loopback address needs a
// token, and the fix is in the message; the browser's flags need --http.
func TestServeBrowserFlags(t *testing.T) {
	t.Setenv("TOOLHOST_TOKEN", "")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"serve", "--http", "0.0.0.0:0", "--allow-execute"}, "give a token that calls must send (--token-file PATH, or set TOOLHOST_TOKEN), or serve on 127.0.0.1"},
		{[]string{"serve", "--http", "127.0.0.1:0", "--token-everywhere"}, "--token-everywhere needs a token"},
		{[]string{"serve", "--allow-execute"}, "serve: --allow-execute applies to HTTP (the tool browser and /mcp), served with --http ADDR"},
	} {
		r := run(t, nil, tc.args...)
		if r.code != ExitFailure || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tc.args, r.code, r.stderr, ExitFailure, tc.want)
		}
	}
}
