package servers_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/resolver"
)

// TestMaxOutputEntries: max_output of an entry serving a server's tools,
// or [defaults]' when the entry sets none, is each tool's bound; a
// remote's tools take [defaults]'.
func TestMaxOutputEntries(t *testing.T) {
	for _, tt := range []struct {
		name, extra string
		want        map[string]int // tool → bound
	}{
		{"none", "", map[string]int{"f_echo": 0, "shout": 0}},
		{"entry", "[tools.once]\nsource = \"mcp.fake.echo\"\nmax_output = 2048\n",
			map[string]int{"f_echo": 0, "shout": 0, "once": 2048}},
		{"defaults", "[defaults]\nmax_output = \"4KiB\"\n\n[tools.once]\nsource = \"mcp.fake.echo\"\nmax_output = 2048\n",
			map[string]int{"f_echo": 4096, "shout": 4096, "once": 2048}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cat := newWorld(t, tt.extra).catalog(t)
			for name, want := range tt.want {
				tl, ok := cat.Tool(name)
				if !ok {
					t.Fatalf("no tool %q (problems %v)", name, cat.Report().Problems)
				}
				if int(tl.MaxOutput) != want {
					t.Errorf("%s: MaxOutput = %d, want %d", name, tl.MaxOutput, want)
				}
			}
		})
	}

	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"protocol_version":"1.0","scenario":{"name":"p","version":"1"},"tools":[{"name":"r","description":"R.","parameters":{"type":"object"}}]}`)
	}))
	defer srv.Close()
	for _, tt := range []struct {
		defaults, remote string
		want             int
	}{
		{"", "", 0},
		{"[defaults]\nmax_output = 3000\n", "", 3000},
		{"[defaults]\nmax_output = 3000\n", "max_output = \"2KiB\"\n", 2048}, // the remote's own wins
	} {
		defaults, want := tt.defaults+tt.remote, tt.want
		root := t.TempDir()
		cfg, err := config.Parse(filepath.Join(root, "tools.toml"), []byte(tt.defaults+"[remotes.p]\nurl = \""+srv.URL+"\"\n"+tt.remote))
		if err != nil {
			t.Fatal(err)
		}
		cat, err := resolver.New(context.Background(), cfg, &resolver.Options{Root: root, CacheDir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		if tl, ok := cat.Tool("r"); !ok || int(tl.MaxOutput) != want {
			t.Errorf("remote with %q: tool r %v, MaxOutput %+v; want %d", defaults, ok, tl, want)
		}
		cat.Close()
	}
}
