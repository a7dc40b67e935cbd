package oauth

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeSecretTool answers store, lookup and clear for service toolhost.
func fakeSecretTool(args []string) int {
	dir := os.Getenv("FAKE_KEYRING_DIR")
	cmd := strings.Join(args, " ")
	var account string
	if i := strings.LastIndex(cmd, " account "); i >= 0 {
		account = cmd[i+len(" account "):]
	}
	if !strings.Contains(cmd, "service toolhost account ") || account == "" || strings.ContainsAny(account, "/ ") {
		fmt.Fprintf(os.Stderr, "secret-tool: unexpected arguments %q\n", cmd)
		return 2
	}
	path := filepath.Join(dir, account)
	switch args[0] {
	case "store":
		b, _ := io.ReadAll(os.Stdin)
		if err := os.WriteFile(path, b, 0o600); err != nil {
			return 1
		}
	case "lookup":
		b, err := os.ReadFile(path)
		if err != nil {
			return 1
		}
		os.Stdout.Write(b)
	case "clear":
		_ = os.Remove(path)
	default:
		return 2
	}
	return 0
}

// TestStoreKeyring: a store that uses the keyring keeps the tokens and
// the client secret there, the rest in the file; Delete removes both; a
// keyring that lost the item leaves a record without a token.
func TestStoreKeyring(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	if err := os.Symlink(exe, filepath.Join(bin, "secret-tool")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	kr := t.TempDir()
	t.Setenv("FAKE_KEYRING_DIR", kr)
	dir := t.TempDir()
	s := &Store{dir: dir, keyring: true}
	const res = "https://mcp.example/mcp"
	rec := &Record{Resource: res, Issuer: "https://as.example", ClientID: "c", ClientSecret: "client-s3cret",
		Token: &Token{AccessToken: "access-s3cret", RefreshToken: "refresh-s3cret", Scopes: []string{"read"}}}
	if err := s.Save(rec); err != nil {
		t.Fatal(err)
	}
	file, _ := os.ReadFile(s.path(res))
	for _, secret := range []string{"client-s3cret", "access-s3cret", "refresh-s3cret"} {
		if strings.Contains(string(file), secret) {
			t.Errorf("the record file holds %q:\n%s", secret, file)
		}
	}
	if !strings.Contains(string(file), `"in_keyring": true`) {
		t.Errorf("the record file does not say the secrets are in the keyring:\n%s", file)
	}
	got, err := s.Load(res)
	if err != nil || got.ClientSecret != "client-s3cret" || got.Token.AccessToken != "access-s3cret" || got.Token.RefreshToken != "refresh-s3cret" || got.Token.Scopes[0] != "read" {
		t.Fatalf("Load = %+v (token %+v), %v; want the secrets back from the keyring", got, got.Token, err)
	}
	if had, err := s.Delete(res); !had || err != nil {
		t.Fatalf("Delete = %v, %v", had, err)
	}
	if items, _ := os.ReadDir(kr); len(items) != 0 {
		t.Errorf("keyring items after Delete: %v", items)
	}

	// An item the keyring lost: the record stands, without its token.
	if err := s.Save(rec); err != nil {
		t.Fatal(err)
	}
	items, _ := os.ReadDir(kr)
	for _, it := range items {
		os.Remove(filepath.Join(kr, it.Name()))
	}
	got, err = s.Load(res)
	if err != nil || got == nil || got.Token != nil || got.ClientID != "c" {
		t.Errorf("Load after the keyring lost the item = %+v, %v; want the record without a token", got, err)
	}
}
