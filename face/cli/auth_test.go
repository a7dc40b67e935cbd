package cli

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/internal/invoke/faketool"
)

func init() { fakeTools["browse"] = fakeBrowse }

// fakeBrowse is $BROWSER: it follows the URL's redirects, as a browser
// whose user approves at once.
func fakeBrowse() int {
	resp, err := http.Get(os.Args[2])
	if err != nil {
		return 1
	}
	resp.Body.Close()
	return 0
}

// oauthServer is an MCP endpoint at /mcp that answers 401 with a Bearer
// challenge, and its authorization server on the same origin, which
// issues the token "tok-secret".
func oauthServer(t *testing.T) *httptest.Server {
	t.Helper()
	var ts *httptest.Server
	ts = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSON := func(v any) {
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(v)
		}
		switch r.URL.Path {
		case "/.well-known/oauth-protected-resource/mcp":
			writeJSON(map[string]any{"resource": ts.URL + "/mcp", "authorization_servers": []string{ts.URL}, "scopes_supported": []string{"tools"}})
		case "/.well-known/oauth-authorization-server":
			writeJSON(map[string]any{"issuer": ts.URL, "authorization_endpoint": ts.URL + "/authorize", "token_endpoint": ts.URL + "/token",
				"registration_endpoint": ts.URL + "/register", "code_challenge_methods_supported": []string{"S256"}})
		case "/register":
			w.WriteHeader(http.StatusCreated)
			writeJSON(map[string]any{"client_id": "c1"})
		case "/authorize":
			to, _ := url.Parse(r.URL.Query().Get("redirect_uri"))
			to.RawQuery = url.Values{"code": {"x"}, "state": {r.URL.Query().Get("state")}}.Encode()
			http.Redirect(w, r, to.String(), http.StatusFound)
		case "/token":
			writeJSON(map[string]any{"access_token": "tok-secret", "token_type": "Bearer", "refresh_token": "refresh-secret", "scope": "tools"})
		default:
			w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+ts.URL+`/.well-known/oauth-protected-resource/mcp"`)
			http.Error(w, "unauthorized", http.StatusUnauthorized)
		}
	}))
	t.Cleanup(ts.Close)
	return ts
}

// TestAuth: auth login signs in through $BROWSER and keeps the token
// owner-only, status shows it without the token, logout forgets it.
func TestAuth(t *testing.T) {
	ts := oauthServer(t)
	root := t.TempDir()
	conf := filepath.Join(root, "servers.toml")
	if err := os.WriteFile(conf, []byte("[mcp_servers.srv]\nurl = \""+ts.URL+"/mcp\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("BROWSER", strings.Join(faketool.Command(t, "browse"), " "))
	auth := func(args ...string) result {
		return runIn(t, root, "", nil, append([]string{"--config", conf, "auth"}, args...)...)
	}
	line := "srv  " + ts.URL + "/mcp  "
	steps := []struct {
		args       []string
		wantCode   int
		wantStdout string
		wantStderr string // a substring
	}{
		{[]string{"status"}, 0, line + "not signed in\n", ""},
		{[]string{"login", "srv"}, 0, "srv: signed in at " + ts.URL + "\n", "toolhost: to authorize toolhost at srv, open this URL in a browser:\n  " + ts.URL + "/authorize?"},
		{[]string{"status", "srv"}, 0, line + "signed in at " + ts.URL + ", scopes tools\n", ""},
		{[]string{"logout", "srv"}, 0, "srv: signed out\n", ""},
		{[]string{"status"}, 0, line + "not signed in\n", ""},
		{[]string{"login", "other"}, ExitFailure, "", `auth login: no HTTP server or remote named "other": the configured ones are srv`},
		{[]string{"login"}, ExitFailure, "", "auth login needs the NAME of an HTTP server or remote"},
	}
	for _, st := range steps {
		got := auth(st.args...)
		if got.code != st.wantCode || got.stdout != st.wantStdout || !strings.Contains(got.stderr, st.wantStderr) {
			t.Errorf("auth %q = exit %d, stdout %q, stderr %q; want exit %d, stdout %q, stderr with %q",
				st.args, got.code, got.stdout, got.stderr, st.wantCode, st.wantStdout, st.wantStderr)
		}
		for _, secret := range []string{"tok-secret", "refresh-secret"} {
			if strings.Contains(got.stdout+got.stderr, secret) {
				t.Errorf("auth %q printed the token %q", st.args, secret)
			}
		}
		if len(st.args) == 2 && st.args[0] == "login" && st.wantCode == 0 {
			files, _ := filepath.Glob(filepath.Join(os.Getenv("XDG_STATE_HOME"), "toolhost", "oauth", "*.json"))
			if len(files) != 1 {
				t.Fatalf("token files %v, want one", files)
			}
			if st, err := os.Stat(files[0]); err != nil || st.Mode().Perm() != 0o600 {
				t.Errorf("token file mode %v, %v; want 0600", st.Mode().Perm(), err)
			}
		}
	}
}
