package settings

import (
	"reflect"
	"testing"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/tool"
)

// TestFromEntry: what an entry says of each tool reaches the catalog's
// tool, and an unset setting leaves the tool's as it was.
func TestFromEntry(t *testing.T) {
	ask, skip, no := config.RunAsk, config.RunSkip, "no"
	yes := true
	// set is where an entry sets its rate limit: a set 0 overrides.
	set := map[string]config.Position{"rate_limit_per_minute": {File: "t.toml", Line: 2}}
	tests := []struct {
		name  string
		entry config.Entry
		was   catalog.Tool
		want  catalog.Tool
	}{
		{"unset", config.Entry{}, catalog.Tool{Settings: tool.Settings{RateLimit: 2}, CancellationResponse: "stop"},
			catalog.Tool{Settings: tool.Settings{RateLimit: 2}, CancellationResponse: "stop", Run: catalog.RunUnattended}},
		{"rate limit", config.Entry{Settings: tool.Settings{RateLimit: 5}, Pos: set}, catalog.Tool{},
			catalog.Tool{Settings: tool.Settings{RateLimit: 5}, Run: catalog.RunUnattended}},
		{"no rate limit overrides", config.Entry{Pos: set}, catalog.Tool{Settings: tool.Settings{RateLimit: 2}}, catalog.Tool{Run: catalog.RunUnattended}},
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

// TestFromRemote: [defaults]' settings reach a remote's tool, and the
// remote's own table wins over them.
func TestFromRemote(t *testing.T) {
	at := func(keys ...string) map[string]config.Position {
		pos := map[string]config.Position{}
		for _, k := range keys {
			pos[k] = config.Position{File: "t.toml", Line: 1}
		}
		return pos
	}
	tests := []struct {
		name     string
		remote   config.Remote
		defaults config.Defaults
		want     tool.Settings
	}{
		{"unset", config.Remote{}, config.Defaults{}, tool.Settings{}},
		{"[defaults]", config.Remote{}, config.Defaults{Settings: tool.Settings{RateLimit: 7, MaxOutput: 4096}, Pos: at("rate_limit_per_minute", "max_output")},
			tool.Settings{RateLimit: 7, MaxOutput: 4096}},
		{"the remote's max_output wins", config.Remote{Settings: tool.Settings{MaxOutput: 2048}, Pos: at("max_output")},
			config.Defaults{Settings: tool.Settings{RateLimit: 7, MaxOutput: 4096}, Pos: at("rate_limit_per_minute", "max_output")},
			tool.Settings{RateLimit: 7, MaxOutput: 2048}},
	}
	for _, tt := range tests {
		var got catalog.Tool
		FromRemote(&got, &tt.remote, &tt.defaults)
		if got.Settings != tt.want {
			t.Errorf("%s: settings = %+v, want %+v", tt.name, got.Settings, tt.want)
		}
	}
}
