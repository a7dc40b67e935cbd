package cli

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/config/trust"
	"github.com/toolhost/toolhost/internal/invoke/sandbox"
)

// TestTrustPinsLinkTargets: a tool that may write where a rule's link is
// retargets vendor/fork (external = true) from ~/fork to ~/.ssh between
// two `toolhost call` processes. The second process has no pin of its
// own, yet it is refused, naming the rule, its place, the target recorded
// by `toolhost trust` and the new one. `toolhost trust` again accepts the
// new target.
func TestTrustPinsLinkTargets(t *testing.T) {
	if sandbox.ABI() < 6 {
		t.Skipf("Landlock ABI %d on this kernel; this test needs 6 (Linux 6.12)", sandbox.ABI())
	}
	home := t.TempDir()
	for _, d := range []string{"fork", ".ssh"} {
		if err := os.Mkdir(filepath.Join(home, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, ".config/toolhost/tools.toml")
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	toml := fmt.Sprintf("[tools.greet]\ncommand = [%q, \"greet\"]\nsandbox = true\naccess.fs = [\n  {path = \"vendor/fork\", external = true, read = true},\n]\naccess.env = [{name = \"FAKETOOL_PLAY\", read = true}]\nsummary = \"Greet someone.\"\n[tools.greet.parameters.name]\ntype = \"string\"\n", exe)
	if err := os.WriteFile(file, []byte(toml), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "vendor/fork")
	if err := os.Mkdir(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(home, "fork"), link); err != nil {
		t.Fatal(err)
	}
	retarget := func(to string) {
		t.Helper()
		if err := os.Remove(link); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.Join(home, to), link); err != nil {
			t.Fatal(err)
		}
	}
	env := []string{"HOME=" + home, "NO_COLOR=1"}
	call := func() result { t.Helper(); return runBinary(t, dir, env, "--no-cache", "call", "greet", "name=Ada") }
	trustLine := func(to string) string {
		return "these access.fs rules follow links, pinned to where they lead now (a call is refused once one leads elsewhere):\n" +
			"  vendor/fork  → " + filepath.Join(home, to) + "  .config/toolhost/tools.toml:4\n"
	}

	dry := "these access.fs rules follow links, and would be pinned to where they lead now:\n" +
		"  vendor/fork  → " + filepath.Join(home, "fork") + "  .config/toolhost/tools.toml:4\n"
	if r := runBinary(t, dir, env, "trust", "--dry-run"); r.code != 0 || !strings.HasSuffix(r.stdout, dry) {
		t.Errorf("trust --dry-run: exit %d, stdout:\n%s\nwant it to end with:\n%s", r.code, r.stdout, dry)
	}
	r := runBinary(t, dir, env, "trust")
	if r.code != 0 || !strings.HasSuffix(r.stdout, trustLine("fork")) {
		t.Fatalf("trust: exit %d, stdout:\n%s\nwant it to end with:\n%s\nstderr:\n%s", r.code, r.stdout, trustLine("fork"), r.stderr)
	}
	if r := call(); r.code != 0 || r.stdout != "Hello, Ada!\n" {
		t.Fatalf("first call: exit %d, stdout %q, stderr:\n%s", r.code, r.stdout, r.stderr)
	}

	retarget(".ssh") // what a hostile tool with write access to vendor/ does
	want := fmt.Sprintf("toolhost: tool \"greet\": run \"%s greet\": run: sandbox: an access.fs rule resolves elsewhere than allowed: "+
		"access.fs rule \"vendor/fork\" (%s:4) now resolves to %s, not to %s as when the workspace was trusted: a link on its path changed\n"+
		"fix: if a tool changed it, restore the link (ls -l %s) and keep links a tool may write out of access.fs rules; "+
		"if you did, check where it leads, then run toolhost trust to record the new target (a running toolhost serve reads it when restarted)\n",
		exe, file, filepath.Join(home, ".ssh"), filepath.Join(home, "fork"), link)
	if r := call(); r.code != 2 || r.stdout != "" || r.stderr != want {
		t.Errorf("call after the retarget: exit %d, stdout %q, stderr mismatch (-want +got):\n-%s\n+%s", r.code, r.stdout, want, r.stderr)
	}

	r = runBinary(t, dir, env, "trust")
	if r.code != 0 || !strings.HasSuffix(r.stdout, trustLine(".ssh")) {
		t.Fatalf("trust again: exit %d, stdout:\n%s\nwant it to end with:\n%s", r.code, r.stdout, trustLine(".ssh"))
	}
	if r := call(); r.code != 0 || r.stdout != "Hello, Ada!\n" {
		t.Errorf("call after trust: exit %d, stdout %q, stderr:\n%s", r.code, r.stdout, r.stderr)
	}
	if r := runBinary(t, dir, env, "trust"); r.code != 0 || !strings.Contains(r.stdout, "is already trusted") {
		t.Errorf("trust a third time: exit %d, stdout:\n%s", r.code, r.stdout)
	}
}

// TestKeepTrustedKeepsTargets: a command that writes a trusted
// workspace's file for the person (add, edit, import) keeps the targets
// `toolhost trust` recorded, so a link a tool retargeted meanwhile stays
// refused. A rule the command added is pinned where it leads now.
func TestKeepTrustedKeepsTargets(t *testing.T) {
	elsewhere := t.TempDir()
	for _, d := range []string{"fork", ".ssh", "new"} {
		if err := os.Mkdir(filepath.Join(elsewhere, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	const rule = "[tools.a]\ncommand = \"a\"\naccess.fs = [{path = \"vendor/fork\", external = true, read = true}]\n"
	dir := workspace(t, rule)
	if err := os.Mkdir(filepath.Join(dir, "vendor"), 0o755); err != nil {
		t.Fatal(err)
	}
	link := func(name, to string) {
		t.Helper()
		os.Remove(filepath.Join(dir, "vendor", name))
		if err := os.Symlink(filepath.Join(elsewhere, to), filepath.Join(dir, "vendor", name)); err != nil {
			t.Fatal(err)
		}
	}
	link("fork", "fork")
	if r := runIn(t, dir, "", nil, "trust"); r.code != 0 {
		t.Fatalf("trust: exit %d, stderr %s", r.code, r.stderr)
	}
	link("fork", ".ssh") // a tool's doing
	link("new", "new")   // the person's

	before, trusted := trustedBefore(dir)
	file := filepath.Join(dir, ".config/toolhost/tools.toml")
	wrote := []byte(rule + "[tools.b]\ncommand = \"b\"\naccess.fs = [{path = \"vendor/new\", external = true, read = true}]\n")
	if err := os.WriteFile(file, wrote, 0o644); err != nil {
		t.Fatal(err)
	}
	if note := keepTrusted(before, trusted, file, wrote); note != "" {
		t.Fatalf("keepTrusted = %q", note)
	}
	rec, err := trust.Default().Get(dir)
	if err != nil || rec == nil {
		t.Fatalf("Get = %v, %v", rec, err)
	}
	want := map[string]string{
		filepath.Join(dir, "vendor/fork"): filepath.Join(elsewhere, "fork"),
		filepath.Join(dir, "vendor/new"):  filepath.Join(elsewhere, "new"),
	}
	if !maps.Equal(rec.Targets, want) {
		t.Errorf("Targets = %v, want %v", rec.Targets, want)
	}
}
