package settings

import (
	"reflect"
	"testing"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
)

// TestFromEntry: what an entry says of each tool reaches the catalog's
// tool, and an unset setting leaves the tool's as it was.
func TestFromEntry(t *testing.T) {
	n, zero, ask, skip, no := 5, 0, config.RunAsk, config.RunSkip, "no"
	yes := true
	tests := []struct {
		name  string
		entry config.Entry
		was   catalog.Tool
		want  catalog.Tool
	}{
		{"unset", config.Entry{}, catalog.Tool{RateLimit: 2, CancellationResponse: "stop"},
			catalog.Tool{RateLimit: 2, CancellationResponse: "stop", Run: catalog.RunUnattended}},
		{"rate limit", config.Entry{RateLimit: &n}, catalog.Tool{}, catalog.Tool{RateLimit: 5, Run: catalog.RunUnattended}},
		{"no rate limit overrides", config.Entry{RateLimit: &zero}, catalog.Tool{RateLimit: 2}, catalog.Tool{Run: catalog.RunUnattended}},
		{"run ask", config.Entry{Run: &ask}, catalog.Tool{}, catalog.Tool{Run: catalog.RunAsk, RequiresApproval: true}},
		{"requires approval", config.Entry{RequiresApproval: &yes}, catalog.Tool{}, catalog.Tool{Run: catalog.RunAsk, RequiresApproval: true}},
		{"run skip", config.Entry{Run: &skip}, catalog.Tool{RequiresApproval: true}, catalog.Tool{Run: catalog.RunSkip}},
		{"answers and cancellation", config.Entry{Answers: map[string]any{"q": "a"}, CancellationResponse: &no}, catalog.Tool{},
			catalog.Tool{Run: catalog.RunUnattended, Answers: map[string]any{"q": "a"}, CancellationResponse: "no"}},
	}
	for _, tt := range tests {
		got := tt.was
		FromEntry(&got, &tt.entry)
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: tool = %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

// TestFromRemote: [defaults]' rate limit reaches a remote's tool.
func TestFromRemote(t *testing.T) {
	n := 7
	tests := []struct {
		name     string
		defaults config.Defaults
		want     int
	}{
		{"unset", config.Defaults{}, 0},
		{"set", config.Defaults{RateLimit: &n}, 7},
	}
	for _, tt := range tests {
		var got catalog.Tool
		FromRemote(&got, &tt.defaults)
		if got.RateLimit != tt.want {
			t.Errorf("%s: RateLimit = %d, want %d", tt.name, got.RateLimit, tt.want)
		}
	}
}
