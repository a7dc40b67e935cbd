package servers_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/resolver"
	"github.com/toolhost/toolhost/tool"
)

// TestRateLimitEntries: rate_limit_per_minute of an entry serving a
// server's tools, or [defaults]' when the entry sets none (the implied
// entry of a server no entry names too), is each tool's limit, and the
// catalog refuses the call over it before it reaches the server.
func TestRateLimitEntries(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, extra string
		want        map[string]int // tool → limit
	}{
		{"none", "", map[string]int{"f_echo": 0, "shout": 0}},
		{"entry", "[tools.once]\nsource = \"mcp.fake.echo\"\nrate_limit_per_minute = 1\n",
			map[string]int{"f_echo": 0, "shout": 0, "once": 1}},
		{"defaults", "[defaults]\nrate_limit_per_minute = 7\n\n[tools.once]\nsource = \"mcp.fake.echo\"\nrate_limit_per_minute = 1\n",
			map[string]int{"f_echo": 7, "shout": 7, "once": 1}},
		{"defaults, implied entry", "[defaults]\nrate_limit_per_minute = 3\n\n[mcp_servers.solo]\ncommand = [" + strconv.Quote(exe) +
			", \"basic\"]\nenv = { " + fakeServerEnv + " = \"1\" }\n", map[string]int{"f_echo": 3, "echo": 3}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cat := newWorld(t, tt.extra).catalog(t)
			for name, want := range tt.want {
				tl, ok := cat.Tool(name)
				if !ok {
					t.Fatalf("no tool %q (problems %v)", name, cat.Report().Problems)
				}
				if int(tl.RateLimit) != want {
					t.Errorf("%s: RateLimit = %d, want %d", name, tl.RateLimit, want)
				}
			}
		})
	}

	w := newWorld(t, "[tools.once]\nsource = \"mcp.fake.echo\"\nrate_limit_per_minute = 1\n")
	cat := w.catalog(t)
	args := map[string]any{"text": "hi"}
	if out, err := cat.Call(t.Context(), "once", args, nil); err != nil || out.Type != tool.KindSuccess {
		t.Fatalf("first call = %+v, %v; want success", out, err)
	}
	out, err := cat.Call(t.Context(), "once", args, nil)
	if err != nil || out.Type != tool.KindError || !out.Transient ||
		!strings.HasPrefix(out.Message, `tool "once" is over its rate limit of 1 call per minute: retry in `) {
		t.Errorf("second call = %+v, %v; want the transient refusal of the limit", out, err)
	}
	if out, err := cat.Call(t.Context(), "f_echo", args, nil); err != nil || out.Type != tool.KindSuccess {
		t.Errorf("a tool without a limit = %+v, %v; want success", out, err)
	}
}

// TestRateLimitRemote: a remote manifest's metadata.rate_limit_per_minute
// (which a toolhost provider sends for its limited tools) is the tool's
// limit here too; [defaults]' applies to a tool whose metadata has none,
// and a value that is no number of calls is a warning.
func TestRateLimitRemote(t *testing.T) {
	manifest := `{"protocol_version":"1.0","scenario":{"name":"p","version":"1"},"tools":[
{"name":"limited","description":"Limited.","parameters":{"type":"object"},"metadata":{"rate_limit_per_minute":2}},
{"name":"free","description":"Free.","parameters":{"type":"object"},"metadata":{}},
{"name":"odd","description":"Odd.","parameters":{"type":"object"},"metadata":{"rate_limit_per_minute":1.5}}]}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/v1/tools" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, manifest)
	}))
	defer srv.Close()
	for _, tt := range []struct {
		name     string
		defaults string
		want     map[string]int
	}{
		{"manifest", "", map[string]int{"limited": 2, "free": 0, "odd": 0}},
		{"defaults", "[defaults]\nrate_limit_per_minute = 9\n", map[string]int{"limited": 2, "free": 9, "odd": 9}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			cfg, err := config.Parse(filepath.Join(root, "tools.toml"), []byte(tt.defaults+"[remotes.p]\nurl = \""+srv.URL+"\"\n"))
			if err != nil {
				t.Fatal(err)
			}
			cat, err := resolver.New(context.Background(), cfg, &resolver.Options{Root: root, CacheDir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			defer cat.Close()
			for name, want := range tt.want {
				tl, ok := cat.Tool(name)
				if !ok {
					t.Fatalf("no tool %q (problems %v)", name, cat.Report().Problems)
				}
				if int(tl.RateLimit) != want {
					t.Errorf("%s: RateLimit = %d, want %d", name, tl.RateLimit, want)
				}
			}
			p := cat.Report().Problems
			if len(p) != 1 || !p[0].Warning || p[0].Tool != "odd" ||
				!strings.Contains(p[0].Err.Error(), `tool "odd": metadata.rate_limit_per_minute is 1.5, not a whole number of calls per minute from 0 to 2147483647`) {
				t.Errorf("problems %v, want the warning about odd's rate limit", p)
			}
		})
	}
}
