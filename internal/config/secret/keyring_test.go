package secret

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The test binary plays the keyring's client when started under its name
// (secret-tool, security): FAKE_KEYRING names the scenario.
func TestMain(m *testing.M) {
	if name := filepath.Base(os.Args[0]); name == "secret-tool" || name == "security" {
		os.Exit(fakeKeyring(name, os.Args[1:], os.Getenv("FAKE_KEYRING")))
	}
	os.Exit(m.Run())
}

// plantedKeyring is the value the fake keyring holds; no error may show it.
const plantedKeyring = "s3cr3t-keyring"

// fakeKeyring answers as the real clients do for the item service
// "toolhost", account "gh", in scenario: "value" (the item exists),
// "missing" (it does not), "hang" (a prompt nobody answers), "leak" (a
// failing client that prints the value on both streams), "big" (a value
// over the cap).
func fakeKeyring(name string, args []string, scenario string) int {
	want := map[string]string{
		"secret-tool": "lookup service toolhost account gh",
		"security":    "find-generic-password -s toolhost -a gh -w",
	}[name]
	if got := strings.Join(args, " "); got != want {
		fmt.Fprintf(os.Stderr, "%s: unexpected arguments %q\n", name, got)
		return 2
	}
	if b, err := os.ReadFile("/dev/stdin"); err != nil || len(b) != 0 {
		fmt.Fprintf(os.Stderr, "%s: stdin not empty (%d bytes, %v)\n", name, len(b), err)
		return 2
	}
	switch scenario {
	case "value":
		fmt.Println(plantedKeyring) // both clients end the value with a line break
		return 0
	case "missing":
		if name == "security" {
			fmt.Fprintln(os.Stderr, "security: SecItemCopyMatching: The specified item could not be found in the keychain.")
			return 44
		}
		return 1 // secret-tool says nothing
	case "hang":
		time.Sleep(time.Hour)
	case "leak":
		fmt.Println(plantedKeyring)
		fmt.Fprintln(os.Stderr, "cannot unlock: "+plantedKeyring)
		return 1
	case "big":
		fmt.Print(strings.Repeat("x", maxFile+1))
		return 0
	}
	return 3
}

// putOnPath makes the test binary reachable on a PATH of its own as name;
// name "" leaves that PATH empty.
func putOnPath(t *testing.T, name string) {
	t.Helper()
	dir := t.TempDir()
	if name != "" {
		exe, err := os.Executable()
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(exe, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", dir)
}

func TestKeyring(t *testing.T) {
	const (
		storeLinux = "secret-tool store --label=toolhost service toolhost account gh"
		storeMac   = "security add-generic-password -U -s toolhost -a gh -w"
		alt        = `keep the secret in an owner-only file ({ secret = "file:PATH" }, chmod 600 PATH) or in a variable of toolhost's environment ({ secret = "env:VAR" })`
	)
	for _, tc := range []struct {
		name, goos, tool, scenario string
		want                       string
		wantErr                    string
		is                         error
	}{
		{"linux value", "linux", "secret-tool", "value", plantedKeyring, "", nil},
		{"mac value", "darwin", "security", "value", plantedKeyring, "", nil},
		{"linux missing", "linux", "secret-tool", "missing", "",
			`secret "keyring:gh": keyring lookup failed: secret-tool lookup service toolhost account gh: exit status 1: if the item is missing, store it with ` + storeLinux + ` (it asks for the value); or ` + alt, ErrKeyring},
		{"mac missing", "darwin", "security", "missing", "",
			`secret "keyring:gh": keyring lookup failed: security find-generic-password -s toolhost -a gh -w: exit status 44; stderr: "security: SecItemCopyMatching: The specified item could not be found in the keychain.": if the item is missing, store it with ` + storeMac + ` (it asks for the value); or ` + alt, ErrKeyring},
		{"linux no tool", "linux", "", "", "",
			`secret "keyring:gh": keyring not available on this system: secret-tool is not on PATH: install libsecret-tools (the Secret Service's client: GNOME Keyring, KWallet), then store the value with ` + storeLinux + ` (it asks for it); or ` + alt, ErrNoKeyring},
		{"mac no tool", "darwin", "", "", "",
			`secret "keyring:gh": keyring not available on this system: security is not on PATH: it comes with macOS in /usr/bin; put /usr/bin on toolhost's PATH, then store the value with ` + storeMac + ` (it asks for it); or ` + alt, ErrNoKeyring},
		{"other system", "plan9", "secret-tool", "value", "",
			`secret "keyring:gh": keyring not available on this system: toolhost reads the OS keyring on Linux (secret-tool) and macOS (security), not on plan9; ` + alt, ErrNoKeyring},
		{"hang", "linux", "secret-tool", "hang", "",
			`secret "keyring:gh": keyring lookup failed: secret-tool lookup service toolhost account gh did not answer within 300ms (a keyring waiting to be unlocked?): unlock the keyring and call again, or ` + alt, ErrKeyring},
		{"leak", "linux", "secret-tool", "leak", "",
			`secret "keyring:gh": keyring lookup failed: secret-tool lookup service toolhost account gh: exit status 1; stderr: "cannot unlock: [redacted]": if the item is missing, store it with ` + storeLinux + ` (it asks for the value); or ` + alt, ErrKeyring},
		{"too big", "linux", "secret-tool", "big", "",
			`secret "keyring:gh": keyring lookup failed: secret-tool lookup service toolhost account gh answered more than 64 KiB, too large for a secret`, ErrKeyring},
	} {
		t.Run(tc.name, func(t *testing.T) {
			putOnPath(t, tc.tool)
			t.Setenv("FAKE_KEYRING", tc.scenario)
			start := time.Now()
			timeout := 20 * time.Second // a test binary under -race starts slowly
			if tc.scenario == "hang" {
				timeout = 300 * time.Millisecond
			}
			v, err := Ref{KindKeyring, "gh"}.Resolve(&Options{KeyringTimeout: timeout, goos: tc.goos})
			if tc.wantErr == "" {
				if err != nil || v.Reveal() != tc.want {
					t.Fatalf("Resolve = %q, %v; want %q", v.Reveal(), err, tc.want)
				}
				return
			}
			if err == nil || err.Error() != tc.wantErr || !errors.Is(err, tc.is) {
				t.Errorf("Resolve error =\n%v\nwant\n%s", err, tc.wantErr)
			}
			if err != nil && strings.Contains(err.Error(), plantedKeyring) {
				t.Errorf("the error shows the value: %v", err)
			}
			if d := time.Since(start); d > timeout+5*time.Second {
				t.Errorf("Resolve took %v: the timeout did not end the client", d)
			}
		})
	}
}
