package servers_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/toolhost/toolhost/audit"
	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/internal/oauth"
	"github.com/toolhost/toolhost/resolver"
	"github.com/toolhost/toolhost/tool"
)

// TestRemoteOAuth: a remote with no bearer_token_env is read and called
// with the tokens toolhost signed in for (stored, one for its manifest's
// URL and one for its MCP endpoint), and no audit line holds them.
func TestRemoteOAuth(t *testing.T) {
	srv := provider(t, "oauth-tok")
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	store := oauth.NewStore(oauth.DefaultDir())
	for _, res := range []string{srv.URL, srv.URL + "/mcp"} {
		if err := store.Save(&oauth.Record{Resource: res, Issuer: srv.URL, ClientID: "c",
			Token: &oauth.Token{AccessToken: "oauth-tok", Expiry: time.Now().Add(time.Hour)}}); err != nil {
			t.Fatal(err)
		}
	}
	root := t.TempDir()
	cfg, err := config.Parse(filepath.Join(root, "tools.toml"), []byte("[remotes.team]\nurl = \""+srv.URL+"\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	logPath := filepath.Join(t.TempDir(), "audit.jsonl")
	log, err := audit.Open(logPath, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	cat, err := resolver.New(t.Context(), cfg, &resolver.Options{Root: root, CacheDir: t.TempDir(), Audit: log})
	if err != nil {
		t.Fatal(err)
	}
	defer cat.Close()
	if got := names(cat); !slices.Equal(got, []string{"shout"}) {
		t.Fatalf("tools %q, want [shout] (problems %v)", got, cat.Report().Problems)
	}
	out, err := cat.Call(t.Context(), "shout", map[string]any{"text": "my token: oauth-tok"}, nil)
	if err != nil || out.Type != tool.KindSuccess || out.Content != "MY TOKEN: OAUTH-TOK" {
		t.Fatalf("Call = %+v, %v", out, err)
	}
	lines, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(lines), "oauth-tok") {
		t.Errorf("audit log:\n%s\nwant the OAuth token redacted", lines)
	}
}

// TestRemoteNeedsLogin: a remote that asks for authorization while no
// browser may open is one problem whose fix is toolhost auth login.
func TestRemoteNeedsLogin(t *testing.T) {
	srv := provider(t, "oauth-tok")
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	root := t.TempDir()
	cfg, err := config.Parse(filepath.Join(root, "tools.toml"), []byte("[remotes.team]\nurl = \""+srv.URL+"\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	cat, err := resolver.New(t.Context(), cfg, &resolver.Options{Root: root, CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer cat.Close()
	probs := cat.Report().Problems
	if len(probs) != 1 || !errors.Is(probs[0].Err, oauth.ErrLoginRequired) || catalog.FixOf(probs[0].Err) != "run toolhost auth login team (it opens a browser to sign in)" {
		t.Errorf("problems %v (fix %q), want one: the login the remote needs", probs, catalog.FixOf(probs[0].Err))
	}
}
