package resolver

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/toolhost/toolhost/config"
)

// TestWarmOnlyWithoutSources: a one-tool Open (Options.Only, as `toolhost
// call` opens) of a configuration naming no MCP server is served warm from
// the second run on, though it lists no source: the servers' snapshot is
// kept (empty) for it too. Each run here is a one-tool Open.
func TestWarmOnlyWithoutSources(t *testing.T) {
	root, cache := t.TempDir(), t.TempDir()
	file := filepath.Join(root, "tools.toml")
	writeFile(t, file, "[tools.c]\ncommand = \"echo {{tool.arguments.word}}\"\nsummary = \"C.\"\n[tools.c.parameters.word]\ntype = \"string\"\n")
	reads := 0
	open := func() *Catalog {
		t.Helper()
		c, err := Open(t.Context(), []string{file}, func() (*config.Config, error) {
			reads++
			data, err := os.ReadFile(file)
			if err != nil {
				return nil, err
			}
			return config.Parse(file, data)
		}, &Options{Root: root, CacheDir: cache, Only: "c"})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	open()
	if reads != 1 {
		t.Fatalf("cold: %d reads of the configuration, want 1", reads)
	}
	c := open()
	if reads != 1 {
		t.Errorf("warm: the configuration was read again (%d reads), want the persisted resolution served", reads)
	}
	if !c.Has("c") {
		t.Error("warm: tool c not served")
	}
}
