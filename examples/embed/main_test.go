package main

import (
	"errors"
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
// plain command.
func TestRun(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "no-user-config"))
	t.Setenv("XDG_CACHE_HOME", filepath.Join(dir, "cache"))
	conf := filepath.Join(dir, ".config", "toolhost")
	if err := os.MkdirAll(conf, 0o755); err != nil {
		t.Fatal(err)
	}
	toml := "[tools.shout]\ncommand = \"echo {{tool.arguments.text}}!\"\nsummary = \"Echo loudly.\"\n" +
		"[tools.shout.parameters.text]\ntype = \"string\"\n"
	if err := os.WriteFile(filepath.Join(conf, "tools.toml"), []byte(toml), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	// Not trusted yet: the workspace's tools are not used.
	t.Setenv("XDG_DATA_HOME", filepath.Join(dir, "data"))
	if err := run(t.Context(), nil); !errors.Is(err, trust.ErrUntrusted) {
		t.Fatalf("list of an untrusted workspace: %v, want trust.ErrUntrusted", err)
	}
	ws, err := config.FindWorkspace(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := trust.Default().Trust(ws.Root, ws.Sums()); err != nil { // what toolhost trust does
		t.Fatal(err)
	}
	if err := run(t.Context(), nil); err != nil {
		t.Fatalf("list: %v", err)
	}
	if err := run(t.Context(), []string{"shout", `{"text":"hi"}`}); err != nil {
		t.Fatalf("call: %v", err)
	}
	err = run(t.Context(), []string{"shout", `{}`})
	if err == nil || !strings.Contains(err.Error(), `missing required argument "text"`) {
		t.Fatalf("call without text: %v", err)
	}
	if err := run(t.Context(), []string{"nope"}); err == nil || !strings.Contains(err.Error(), "unknown tool") {
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
