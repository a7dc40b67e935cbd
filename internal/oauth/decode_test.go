package oauth

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestParseChallenge(t *testing.T) {
	tests := []struct {
		header []string
		want   challenge
	}{
		{[]string{`Bearer resource_metadata="https://a/x", scope="r w"`}, challenge{metadata: "https://a/x", scopes: []string{"r", "w"}}},
		{[]string{`Bearer error="insufficient_scope", scope="admin"`}, challenge{scopes: []string{"admin"}, err: "insufficient_scope"}},
		{[]string{`Basic realm="x", Bearer scope="s"`}, challenge{scopes: []string{"s"}}},
		{[]string{`Basic realm="x"`}, challenge{}},
		{[]string{`Bearer scope="unterminated`}, challenge{}}, // malformed: nothing believed
		{nil, challenge{}},
	}
	for _, tt := range tests {
		got := parseChallenge(tt.header)
		if got.metadata != tt.want.metadata || got.err != tt.want.err || !slices.Equal(got.scopes, tt.want.scopes) {
			t.Errorf("parseChallenge(%q) = %+v, want %+v", tt.header, got, tt.want)
		}
	}
}

func TestDecodeResourceMeta(t *testing.T) {
	const res = "https://mcp.example/mcp"
	tests := []struct {
		name, body string
		wantErr    error
	}{
		{"good", `{"resource":"https://mcp.example/mcp","authorization_servers":["https://as.example"]}`, nil},
		{"trailing slash and case", `{"resource":"HTTPS://MCP.example/mcp/","authorization_servers":["https://as.example"]}`, nil},
		{"another resource", `{"resource":"https://evil.example/mcp","authorization_servers":["https://as.example"]}`, ErrResourceMismatch},
		{"no authorization server", `{"resource":"https://mcp.example/mcp"}`, ErrBadDocument},
		{"plain http authorization server", `{"resource":"https://mcp.example/mcp","authorization_servers":["http://as.example"]}`, ErrBadDocument},
		{"javascript authorization server", `{"resource":"https://mcp.example/mcp","authorization_servers":["javascript:alert(1)"]}`, ErrBadDocument},
		{"not JSON", `<html>`, ErrBadDocument},
	}
	for _, tt := range tests {
		_, err := decodeResourceMeta([]byte(tt.body), res)
		if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil) != (err == nil) {
			t.Errorf("%s: decodeResourceMeta = %v, want %v", tt.name, err, tt.wantErr)
		}
	}
}

func TestDecodeServerMeta(t *testing.T) {
	good := `{"issuer":"https://as.example","authorization_endpoint":"https://as.example/a","token_endpoint":"https://as.example/t","code_challenge_methods_supported":["S256"]}`
	tests := []struct {
		name, body, issuer string
		wantErr            error
	}{
		{"good", good, "https://as.example", nil},
		{"issuer with a trailing slash", good, "https://as.example/", nil},
		{"another issuer", good, "https://other.example", ErrBadDocument},
		{"any issuer at the server's own origin (2025-03-26)", good, "", nil},
		{"plain only", strings.Replace(good, `["S256"]`, `["plain"]`, 1), "https://as.example", ErrNoPKCE},
		{"no PKCE", strings.Replace(good, `,"code_challenge_methods_supported":["S256"]`, ``, 1), "https://as.example", ErrNoPKCE},
		{"http token endpoint", strings.Replace(good, `https://as.example/t`, `http://as.example/t`, 1), "https://as.example", ErrBadDocument},
		{"loopback http is fine", strings.ReplaceAll(good, `https://as.example`, `http://127.0.0.1:9`), "http://127.0.0.1:9", nil},
		{"not JSON", `[`, "https://as.example", ErrBadDocument},
	}
	for _, tt := range tests {
		_, err := decodeServerMeta([]byte(tt.body), tt.issuer)
		if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil) != (err == nil) {
			t.Errorf("%s: decodeServerMeta = %v, want %v", tt.name, err, tt.wantErr)
		}
	}
}

func TestDecodeToken(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name    string
		status  int
		body    string
		want    *Token
		wantErr string
	}{
		{"bearer", 200, `{"access_token":"a","token_type":"Bearer","expires_in":60,"refresh_token":"r","scope":"x y"}`,
			&Token{AccessToken: "a", RefreshToken: "r", Expiry: now.Add(time.Minute), Scopes: []string{"x", "y"}}, ""},
		{"lower-case type, no expiry", 200, `{"access_token":"a","token_type":"bearer"}`, &Token{AccessToken: "a"}, ""},
		{"no access token", 200, `{"token_type":"Bearer"}`, nil, "without access_token"},
		{"another type", 200, `{"access_token":"a","token_type":"DPoP"}`, nil, `token type "DPoP"`},
		{"negative expiry", 200, `{"access_token":"a","expires_in":-1}`, nil, "negative expires_in"},
		{"expires_in as a string", 200, `{"access_token":"a","expires_in":"60"}`, nil, "malformed document"},
		{"OAuth error", 400, `{"error":"invalid_client","error_description":"bad secret"}`, nil, "invalid_client (bad secret)"},
		{"error without body", 502, `bad gateway`, nil, "HTTP status 502"},
	}
	for _, tt := range tests {
		got, err := decodeToken(tt.status, []byte(tt.body), now)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%s: decodeToken = %+v, %v; want an error with %q", tt.name, got, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got.AccessToken != tt.want.AccessToken || got.RefreshToken != tt.want.RefreshToken ||
			!got.Expiry.Equal(tt.want.Expiry) || !slices.Equal(got.Scopes, tt.want.Scopes) {
			t.Errorf("%s: decodeToken = %+v, %v; want %+v", tt.name, got, err, tt.want)
		}
	}
}

func TestStore(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "oauth")
	s := NewStore(dir)
	rec := &Record{Resource: "https://mcp.example/mcp", ClientID: "c", Token: &Token{AccessToken: "secret-token"}}
	if err := s.Save(rec); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(files) != 1 {
		t.Fatalf("files = %v, want one record", files)
	}
	for path, want := range map[string]os.FileMode{dir: 0o700, files[0]: 0o600} {
		if st, err := os.Stat(path); err != nil || st.Mode().Perm() != want {
			t.Errorf("mode of %s = %v, %v; want %v", path, st.Mode().Perm(), err, want)
		}
	}
	got, err := s.Load("HTTPS://mcp.example/mcp/")
	if err != nil || got == nil || got.Token.AccessToken != "secret-token" {
		t.Fatalf("Load = %+v, %v", got, err)
	}
	if got, err := s.Load("https://other.example/mcp"); got != nil || err != nil {
		t.Errorf("Load of another resource = %+v, %v; want nothing", got, err)
	}
	if err := os.Chmod(files[0], 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Load(rec.Resource); !errors.Is(err, ErrPermissions) {
		t.Errorf("Load of a 0644 record = %v, want ErrPermissions", err)
	}
	if had, err := s.Delete(rec.Resource); !had || err != nil {
		t.Errorf("Delete = %v, %v; want true", had, err)
	}
	if had, err := s.Delete(rec.Resource); had || err != nil {
		t.Errorf("second Delete = %v, %v; want false", had, err)
	}
}

// TestDefaultDirNoHome: with neither XDG_STATE_HOME nor a home directory,
// tokens have no place (never a shared directory such as /tmp): Save
// fails saying what to set, Load finds nothing.
func TestDefaultDirNoHome(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", "")
	t.Setenv("HOME", "")
	if d := DefaultDir(); d != "" {
		t.Fatalf("DefaultDir = %q, want none", d)
	}
	s := NewStore(DefaultDir())
	if err := s.Save(&Record{Resource: "https://example.com/mcp"}); err == nil || err.Error() != "no place to keep OAuth tokens: set XDG_STATE_HOME or HOME" {
		t.Errorf("Save = %v", err)
	}
	if r, err := s.Load("https://example.com/mcp"); r != nil || err != nil {
		t.Errorf("Load = %v, %v; want nothing", r, err)
	}
}

// TestDisplayURL: what a server put in its authorization URL is printed
// percent-encoded, never as control or bidirectional characters.
func TestDisplayURL(t *testing.T) {
	got := displayURL("https://as.example/authorize?x=\u202egnp.exe&y=a b\x1b[2J")
	want := "https://as.example/authorize?x=%E2%80%AEgnp.exe&y=a%20b%1B[2J"
	if got != want {
		t.Errorf("displayURL = %q, want %q", got, want)
	}
}
