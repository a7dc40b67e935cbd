package servers_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/audit"
	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/face/httpserver"
	"github.com/toolhost/toolhost/face/mcpserver"
	"github.com/toolhost/toolhost/resolver"
	"github.com/toolhost/toolhost/tool"
)

// provider serves a catalog of one in-process tool, shout, over HTTP as
// `toolhost serve --http` does (manifest and MCP endpoint), requiring
// the bearer token token.
func provider(t *testing.T, token string) *httptest.Server {
	t.Helper()
	cat, err := resolver.New(t.Context(), nil, &resolver.Options{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cat.Close() })
	schema := map[string]any{"type": "object", "properties": map[string]any{"text": map[string]any{"type": "string"}}, "required": []any{"text"}}
	if err := cat.Register(catalog.Definition{Name: "shout", Summary: "Shout the text.", InputSchema: schema},
		func(_ context.Context, args map[string]any) (tool.Outcome, error) {
			return tool.Success(strings.ToUpper(fmt.Sprint(args["text"]))), nil
		}); err != nil {
		t.Fatal(err)
	}
	ms := mcpserver.New(cat, &mcpserver.Options{AllowHTTPExecute: true})
	srv := httptest.NewServer(httpserver.NewHandler(httpserver.FromCatalog(cat),
		&httpserver.Options{MCP: ms.Handler(), Token: token, TokenEverywhere: true}))
	t.Cleanup(srv.Close)
	return srv
}

// TestRemote lists the tools of another toolhost from its manifest and
// calls them through its MCP endpoint, with the bearer token from the
// environment, beside the local server's tools; the token is in no audit
// line.
func TestRemote(t *testing.T) {
	srv := provider(t, "s3cret")
	t.Setenv("TEAM_TOKEN", "s3cret")
	root := t.TempDir()
	cfg, err := config.Parse(filepath.Join(root, "tools.toml"), []byte(`
[remotes.team]
url = "`+srv.URL+`"
bearer_token_env = "TEAM_TOKEN"
prefix = "team_"
`))
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
	if got := names(cat); !slices.Equal(got, []string{"team_shout"}) {
		t.Fatalf("tools %q, want [team_shout] (problems %v)", got, cat.Report().Problems)
	}
	if tl, _ := cat.Tool("team_shout"); tl.Source != "remote.team.shout" || tl.Summary != "Shout the text." {
		t.Errorf("team_shout: source %q summary %q", tl.Source, tl.Summary)
	}
	out, err := cat.Call(t.Context(), "team_shout", map[string]any{"text": "hi"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if out.Type != tool.KindSuccess || out.Content != "HI" {
		t.Errorf("outcome %+v, want success HI", out)
	}
	// Arguments are validated against the remote's schema before anything is sent.
	out, err = cat.Call(t.Context(), "team_shout", map[string]any{}, nil)
	if err != nil || out.Type != tool.KindError || !strings.Contains(out.Message, "text") {
		t.Errorf("invalid arguments: %+v, %v; want an error outcome naming text", out, err)
	}
	if _, err := cat.Call(t.Context(), "team_shout", map[string]any{"text": "my token: s3cret"}, nil); err != nil {
		t.Fatal(err)
	}
	lines, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	if want := `"my token: [redacted]"`; strings.Contains(string(lines), "s3cret") || !strings.Contains(string(lines), want) {
		t.Errorf("audit log:\n%s\nwant the bearer token redacted (%s), nowhere in it", lines, want)
	}
}

// TestRemoteDown: a remote that cannot be read is one problem; the other
// sources' tools are served.
func TestRemoteDown(t *testing.T) {
	srv := provider(t, "")
	url := srv.URL
	srv.Close()
	w := newWorld(t, `
[remotes.gone]
url = "`+url+`"
`)
	cat := w.catalog(t)
	if got := names(cat); !slices.Equal(got, fakeNames) {
		t.Errorf("tools %q, want %q", got, fakeNames)
	}
	problems := cat.Report().Problems
	if len(problems) != 1 || !strings.Contains(problems[0].Error(), "source remote.gone: listing its tools: ") {
		t.Fatalf("problems %v, want one of remote.gone", problems)
	}
	// The remote's fix reaches every face as a field of the problem's cause.
	if fix := catalog.FixOf(problems[0]); !strings.HasPrefix(fix, "check that the provider is running and reachable at "+url) {
		t.Errorf("fix %q, want the remote's", fix)
	}
}
