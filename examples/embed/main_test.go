package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/config/trust"
	"github.com/toolhost/toolhost/resolver"
)

// TestRun lists and calls the tools of a workspace whose only tool is a
// plain command, beside a broken file: the broken file is reported on
// stderr and the rest is served, as is the user file while the workspace
// is not trusted.
func TestRun(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("HOME", dir)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "no-user-config"))
	t.Setenv("XDG_CACHE_HOME", filepath.Join(dir, "cache"))
	t.Setenv("XDG_STATE_HOME", filepath.Join(dir, "state"))
	conf := filepath.Join(dir, ".config", "toolhost")
	if err := os.MkdirAll(conf, 0o755); err != nil {
		t.Fatal(err)
	}
	toml := "[tools.shout]\ncommand = \"echo {{tool.arguments.text}}!\"\nsummary = \"Echo loudly.\"\n" +
		"[tools.shout.parameters.text]\ntype = \"string\"\npattern = \"^[^-]\"\n"
	if err := os.WriteFile(filepath.Join(conf, "tools.toml"), []byte(toml), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(conf, "zz-broken.toml"), []byte("[tools.x]\ncommand = \n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	run := func(args ...string) (stdout, stderr string, err error) {
		var out, errOut strings.Builder
		err = run(t.Context(), args, &out, &errOut)
		return out.String(), strings.ReplaceAll(errOut.String(), dir, "DIR"), err
	}
	// Not trusted yet: the workspace's tools are not used, and it says so.
	t.Setenv("XDG_DATA_HOME", filepath.Join(dir, "data"))
	stdout, stderr, err := run()
	if want := "DIR/.config/toolhost: workspace DIR is not trusted: new tools.toml, zz-broken.toml\n  fix: review the files, then run toolhost trust\n"; err != nil || stdout != "" || stderr != want {
		t.Fatalf("list of an untrusted workspace: stdout %q, stderr %q, %v; want no tools, the workspace named on stderr, no error", stdout, stderr, err)
	}
	ws, err := config.FindWorkspace(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := trust.Default().Trust(ws.Root, ws.Sums()); err != nil { // what toolhost trust does
		t.Fatal(err)
	}
	stdout, stderr, err = run()
	if want := "shout            Echo loudly.\n"; err != nil || stdout != want {
		t.Fatalf("list: stdout %q, %v; want %q", stdout, err, want)
	}
	if want := "DIR/.config/toolhost/zz-broken.toml:2: TOML syntax error: expected value but found '\\n' instead\n"; stderr != want {
		t.Errorf("list: stderr %q, want %q", stderr, want)
	}
	if stdout, _, err := run("shout", `{"text":"hi"}`); err != nil || stdout != "hi!\n" {
		t.Fatalf("call: %q, %v", stdout, err)
	}
	_, _, err = run("shout", `{}`)
	if err == nil || err.Error() != `invalid arguments for tool "shout": missing required argument "text"` {
		t.Fatalf("call without text: %v", err)
	}
	if _, _, err := run("nope"); err == nil || !strings.Contains(err.Error(), "unknown tool") {
		t.Fatalf("call of an unknown tool: %v", err)
	}
}

// TestMount: the tool browser and its API answer under /explorer/.
func TestMount(t *testing.T) {
	cat, err := resolver.New(t.Context(), nil, &resolver.Options{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(mux(cat))
	defer srv.Close()
	for path, want := range map[string]string{"/explorer/": "My app&#39;s tools", "/explorer/tools": "[]", "/": "home page"} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(body), want) {
			t.Errorf("GET %s: %d, want %q in %.200s", path, resp.StatusCode, want, body)
		}
	}
}
