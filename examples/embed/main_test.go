package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
	if err := run(t.Context(), nil); err != nil {
		t.Fatalf("list: %v", err)
	}
	if err := run(t.Context(), []string{"shout", `{"text":"hi"}`}); err != nil {
		t.Fatalf("call: %v", err)
	}
	err := run(t.Context(), []string{"shout", `{}`})
	if err == nil || !strings.Contains(err.Error(), `missing required argument "text"`) {
		t.Fatalf("call without text: %v", err)
	}
	if err := run(t.Context(), []string{"nope"}); err == nil || !strings.Contains(err.Error(), "unknown tool") {
		t.Fatalf("call of an unknown tool: %v", err)
	}
}
