package catalog_test

import (
	"testing"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
)

// TestRunModesMatchConfig: the sources turn an entry's run field into a
// RunMode by conversion, so each mode is spelled as the configuration
// spells it.
func TestRunModesMatchConfig(t *testing.T) {
	for _, tt := range []struct {
		got  catalog.RunMode
		want string
	}{
		{catalog.RunUnattended, config.RunUnattended},
		{catalog.RunAsk, config.RunAsk},
		{catalog.RunSkip, config.RunSkip},
	} {
		if string(tt.got) != tt.want {
			t.Errorf("run mode %q, want %q as the configuration spells it", tt.got, tt.want)
		}
	}
}
