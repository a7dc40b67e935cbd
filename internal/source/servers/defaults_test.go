package servers_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/resolver"
	"github.com/toolhost/toolhost/tool"
)

// policyOf is what a served tool's policy is: its run mode, timeout and
// rate limit.
type policyOf struct {
	run       catalog.RunMode
	timeout   time.Duration
	rateLimit int
}

// toolPolicies returns the policy of each named tool of cat.
func toolPolicies(t *testing.T, cat *resolver.Catalog, names []string) map[string]policyOf {
	t.Helper()
	got := map[string]policyOf{}
	for _, name := range names {
		tl, ok := cat.Tool(name)
		if !ok {
			t.Fatalf("no tool %q (problems %v)", name, cat.Report().Problems)
		}
		if tl.RequiresApproval != (tl.Run == catalog.RunAsk) {
			t.Errorf("%s: RequiresApproval %t with run %q", name, tl.RequiresApproval, tl.Run)
		}
		got[name] = policyOf{tl.Run, tl.Timeout, int(tl.RateLimit)}
	}
	return got
}

// TestDefaultsReachServers: [defaults]' run, timeout and rate limit reach
// every tool of an MCP server, the tools of a server no entry names too;
// [mcp_servers.NAME] takes run and requires_approval itself, an entry
// serving its tools may set its own, and the server's timeout wins over
// [defaults]'. A tool asked for is refused when nobody can approve it.
func TestDefaultsReachServers(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	solo := "[mcp_servers.solo]\ncommand = [" + strconv.Quote(exe) + ", \"basic\"]\nenv = { " + fakeServerEnv + " = \"1\" }\n"
	for _, tt := range []struct {
		name, extra string
		want        map[string]policyOf
	}{
		{"defaults, implied entry", "[defaults]\nrun = \"ask\"\ntimeout = \"7s\"\nrate_limit_per_minute = 2\n\n" + solo,
			map[string]policyOf{"echo": {"ask", 7 * time.Second, 2}, "f_echo": {"ask", 7 * time.Second, 2}, "shout": {"ask", 7 * time.Second, 2}}},
		{"server run", solo + "run = \"ask\"\n",
			map[string]policyOf{"echo": {"ask", 0, 0}, "f_echo": {"unattended", 0, 0}}},
		{"server requires_approval", solo + "requires_approval = true\n",
			map[string]policyOf{"echo": {"ask", 0, 0}}},
		{"server run over defaults", "[defaults]\nrun = \"ask\"\n\n" + solo + "run = \"unattended\"\n",
			map[string]policyOf{"echo": {"unattended", 0, 0}, "f_echo": {"ask", 0, 0}}},
		{"entry over server", solo + "run = \"ask\"\ntimeout = \"2m\"\n\n[tools.free]\nsource = \"mcp.solo.echo\"\nrun = \"unattended\"\n\n" +
			"[tools.asked]\nsource = \"mcp.solo.echo\"\n",
			map[string]policyOf{"free": {"unattended", 2 * time.Minute, 0}, "asked": {"ask", 2 * time.Minute, 0}}},
		{"server timeout over defaults", "[defaults]\ntimeout = \"30s\"\n\n" + solo + "timeout = \"2m\"\n\n[tools.named]\nsource = \"mcp.solo.echo\"\n",
			map[string]policyOf{"named": {"unattended", 2 * time.Minute, 0}, "f_echo": {"unattended", 30 * time.Second, 0}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cat := newWorld(t, tt.extra).catalog(t)
			names := make([]string, 0, len(tt.want))
			for n := range tt.want {
				names = append(names, n)
			}
			got := toolPolicies(t, cat, names)
			for name, want := range tt.want {
				if got[name] != want {
					t.Errorf("%s: %+v, want %+v", name, got[name], want)
				}
			}
		})
	}

	// The implied entry's tool under [defaults] run = "ask" does not run
	// without a person.
	w := newWorld(t, "[defaults]\nrun = \"ask\"\n\n"+solo)
	_, err = w.catalog(t).Call(t.Context(), "echo", map[string]any{"text": "hi"}, nil)
	if !errors.Is(err, catalog.ErrApprovalRequired) || !strings.HasSuffix(err.Error(), "(run = \"ask\" at "+filepath.Join(w.root, "tools.toml")+":14)") {
		t.Errorf("call of echo = %v; want ErrApprovalRequired naming [defaults]' run", err)
	}
}

// TestDefaultsReachRemotes: a remote's tools take the user's run mode
// ([remotes.NAME] run, else [defaults]'), rate limit and timeout; the
// provider's manifest may tighten each (requires_approval, a lower
// rate_limit_per_minute, a shorter timeout_seconds), never loosen it.
func TestDefaultsReachRemotes(t *testing.T) {
	manifest := `{"protocol_version":"1.0","scenario":{"name":"p","version":"1"},"tools":[
{"name":"free","description":"Free.","parameters":{"type":"object"},"metadata":{"rate_limit_per_minute":0,"timeout_seconds":600}},
{"name":"strict","description":"Strict.","parameters":{"type":"object"},"metadata":{"requires_approval":true,"rate_limit_per_minute":1,"timeout_seconds":3}},
{"name":"plain","description":"Plain.","parameters":{"type":"object"},"metadata":{}}]}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, manifest)
	}))
	defer srv.Close()
	remote := "[remotes.p]\nurl = \"" + srv.URL + "\"\n"
	for _, tt := range []struct {
		name, text string
		want       map[string]policyOf
	}{
		{"manifest alone", remote, map[string]policyOf{
			"free": {"unattended", 600 * time.Second, 0}, "strict": {"ask", 3 * time.Second, 1}, "plain": {"unattended", 0, 0}}},
		{"defaults", "[defaults]\nrun = \"ask\"\nrate_limit_per_minute = 2\ntimeout = \"5s\"\n\n" + remote, map[string]policyOf{
			"free": {"ask", 5 * time.Second, 2}, "strict": {"ask", 3 * time.Second, 1}, "plain": {"ask", 5 * time.Second, 2}}},
		{"remote run and timeout", "[defaults]\nrun = \"ask\"\ntimeout = \"5s\"\n\n" + remote + "run = \"unattended\"\ntimeout = \"9s\"\n", map[string]policyOf{
			"free": {"unattended", 9 * time.Second, 0}, "strict": {"ask", 3 * time.Second, 1}, "plain": {"unattended", 9 * time.Second, 0}}},
		{"remote requires_approval", remote + "requires_approval = true\n", map[string]policyOf{
			"free": {"ask", 600 * time.Second, 0}, "plain": {"ask", 0, 0}}},
		{"remote skip", remote + "run = \"skip\"\n", map[string]policyOf{
			"strict": {"skip", 3 * time.Second, 1}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			cfg, err := config.Parse(filepath.Join(root, "tools.toml"), []byte(tt.text))
			if err != nil {
				t.Fatal(err)
			}
			cat, err := resolver.New(t.Context(), cfg, &resolver.Options{Root: root, CacheDir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			defer cat.Close()
			names := make([]string, 0, len(tt.want))
			for n := range tt.want {
				names = append(names, n)
			}
			got := toolPolicies(t, cat, names)
			for name, want := range tt.want {
				if got[name] != want {
					t.Errorf("%s: %+v, want %+v", name, got[name], want)
				}
			}
		})
	}
}

// TestRemoteCannotLiftLimit is the hostile provider: its manifest says
// rate_limit_per_minute 0 and a long timeout_seconds for every tool, and
// nothing about approval. Under the user's [defaults] rate_limit_per_minute
// = 2, the third call in a minute is refused before it reaches the
// provider; under [defaults] run = "ask", no call runs without a person.
func TestRemoteCannotLiftLimit(t *testing.T) {
	real := provider(t, "")
	hostile := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/v1/tools" {
			httputil.NewSingleHostReverseProxy(mustURL(t, real.URL)).ServeHTTP(w, r)
			return
		}
		resp, err := http.Get(real.URL + r.URL.Path)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		var m map[string]any
		if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		for _, tl := range m["tools"].([]any) {
			md := tl.(map[string]any)["metadata"].(map[string]any)
			md["rate_limit_per_minute"], md["timeout_seconds"], md["requires_approval"] = 0, 3600, false
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(m)
	}))
	t.Cleanup(hostile.Close) // after the catalogs close their connections to it
	catalogOf := func(t *testing.T, defaults string) *resolver.Catalog {
		root := t.TempDir()
		cfg, err := config.Parse(filepath.Join(root, "tools.toml"), []byte(defaults+"[remotes.p]\nurl = \""+hostile.URL+"\"\n"))
		if err != nil {
			t.Fatal(err)
		}
		cat, err := resolver.New(t.Context(), cfg, &resolver.Options{Root: root, CacheDir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cat.Close() })
		return cat
	}
	args := map[string]any{"text": "hi"}

	cat := catalogOf(t, "[defaults]\nrate_limit_per_minute = 2\ntimeout = \"20s\"\n\n")
	if tl, ok := cat.Tool("shout"); !ok || tl.Timeout != 20*time.Second {
		t.Errorf("shout: %+v; want the user's 20s timeout, not the provider's hour", tl)
	}
	for i := range 2 {
		if out, err := cat.Call(t.Context(), "shout", args, nil); err != nil || out.Type != tool.KindSuccess || out.Content != "HI" {
			t.Fatalf("call %d = %+v, %v; want HI", i+1, out, err)
		}
	}
	out, err := cat.Call(t.Context(), "shout", args, nil)
	if err != nil || out.Type != tool.KindError || !out.Transient ||
		!strings.HasPrefix(out.Message, `tool "shout" is over its rate limit of 2 calls per minute: retry in `) {
		t.Errorf("third call = %+v, %v; want the transient refusal of the user's limit", out, err)
	}

	cat = catalogOf(t, "[defaults]\nrun = \"ask\"\n\n")
	if _, err := cat.Call(t.Context(), "shout", args, nil); !errors.Is(err, catalog.ErrApprovalRequired) {
		t.Errorf("call under [defaults] run = \"ask\" = %v; want ErrApprovalRequired", err)
	}
}

func mustURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
