package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMCPListingCacheFollowsSandbox: a server's cached listing, made
// while it ran unconfined (sandbox = false), is not served once its
// sandbox settings change: check asks the server again, under the new
// rules, and reports what they do to it.
func TestMCPListingCacheFollowsSandbox(t *testing.T) {
	argv, _ := fakeMCP(t) // a program outside the workspace
	root := t.TempDir()
	file := filepath.Join(t.TempDir(), "servers.toml")
	server := fmt.Sprintf("[mcp_servers.fake]\ncommand = [%q, %q]\n", argv[0], argv[1])
	write := func(text string) {
		t.Helper()
		if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	th := func(args ...string) result {
		t.Helper()
		return runIn(t, root, "", nil, append([]string{"--config", file}, args...)...)
	}
	write(server + "sandbox = false\n")
	if r := th("check"); r.code != 0 || r.stdout != "ok: 3 tools, 0 errors, 0 warnings\n" {
		t.Fatalf("check unconfined: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	write(server)
	cached := th("check")
	fresh := th("--no-cache", "check")
	if fresh.code != 1 || !strings.HasPrefix(fresh.stdout, "error: source mcp.fake: listing its tools: ") {
		t.Fatalf("--no-cache check under the sandbox: exit %d, stdout %q; want 1 and the server's problem", fresh.code, fresh.stdout)
	}
	if cached.code != fresh.code || cached.stdout != fresh.stdout {
		t.Errorf("check after the sandbox changed: exit %d, stdout %q\nwant what --no-cache check says: exit %d, stdout %q", cached.code, cached.stdout, fresh.code, fresh.stdout)
	}
}
