package binary

import (
	"testing"
)

// TestMaxOutputMetadata: max_output is served as Tool.MaxOutput with the
// place that set it, survives a persisted resolution, and follows an
// edited configuration on the next warm start.
func TestMaxOutputMetadata(t *testing.T) {
	t.Parallel()
	dir, cache := t.TempDir(), t.TempDir()
	for _, tt := range []struct {
		round, policy string
		want          int
		place         string
	}{
		{"resolved", "max_output = 4096", 4096, "test.toml:4"},
		{"persisted", "max_output = 4096", 4096, "test.toml:4"},
		{"edited", `max_output = "2KiB"`, 2048, "test.toml:4"},
		{"removed", "", 0, ""},
	} {
		c, _ := limitedCatalog(t, tt.policy, nil, dir, cache)
		tl, ok := c.Tool("t")
		if !ok {
			t.Fatalf("%s: no tool t", tt.round)
		}
		if int(tl.MaxOutput) != tt.want || tl.Provenance["max_output"] != tt.place {
			t.Errorf("%s: MaxOutput %d from %q, want %d from %q", tt.round, tl.MaxOutput, tl.Provenance["max_output"], tt.want, tt.place)
		}
	}
}
