package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/internal/config/secret"
)

func TestParseSecrets(t *testing.T) {
	cfg := mustParse(t, `
[defaults]
env = { SHARED = { secret = "env:SHARED_TOKEN" }, LANG = "C", OVERRIDDEN = { secret = "env:D" } }

[tools.gh]
command = "gh-tool"
env.GH_TOKEN = { secret = "env:GITHUB_TOKEN" }
env.KEY = { secret = "file:keys/gh" }
env.HOME_KEY = { secret = "file:~/gh" }
env.RING = { secret = "keyring:github" }
env.PLAIN = "kept"
env.OVERRIDDEN = "plain wins over [defaults]"

[toolsets.fs]
command = "fs"
env.T = { secret = "file:/abs/t" }
`)
	gh := cfg.Tools["gh"]
	wantSecrets := map[string]secret.Ref{
		"GH_TOKEN": {Kind: "env", Name: "GITHUB_TOKEN"},
		"KEY":      {Kind: "file", Name: "keys/gh"}, // anchored at the file's directory: "." here
		"HOME_KEY": {Kind: "file", Name: "~/gh"},
		"RING":     {Kind: "keyring", Name: "github"},
		"SHARED":   {Kind: "env", Name: "SHARED_TOKEN"}, // from [defaults]
	}
	if !reflect.DeepEqual(gh.Secrets, wantSecrets) {
		t.Errorf("Secrets mismatch:\nwant %v\ngot  %v", wantSecrets, gh.Secrets)
	}
	wantEnv := map[string]string{"PLAIN": "kept", "OVERRIDDEN": "plain wins over [defaults]", "LANG": "C"}
	if !reflect.DeepEqual(gh.Env, wantEnv) {
		t.Errorf("Env mismatch:\nwant %v\ngot  %v", wantEnv, gh.Env)
	}
	for k, want := range map[string]string{"env.GH_TOKEN": "config.toml:7", "env.SHARED": "config.toml:3", "env.RING": "config.toml:10"} {
		if got := gh.Pos[k].String(); got != want {
			t.Errorf("Pos[%s] = %s, want %s", k, got, want)
		}
	}
	if got := cfg.Toolsets["fs"].Secrets["T"]; got != (secret.Ref{Kind: "file", Name: "/abs/t"}) {
		t.Errorf("toolset secret = %v", got)
	}
}

// TestSecretFileAnchored: a relative file: path is the configuration
// file's directory's.
func TestSecretFileAnchored(t *testing.T) {
	cfg, files, err := loadLayers(t, "[tools.x]\ncommand = \"x\"\nenv.K = { secret = \"file:secrets/k\" }\n")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := cfg.Tools["x"].Secrets["K"].Name, filepath.Join(filepath.Dir(files[0]), "secrets/k"); got != want {
		t.Errorf("file path = %s, want %s", got, want)
	}
}

func TestParseSecretErrors(t *testing.T) {
	head := "[tools.x]\ncommand = \"x\"\n"
	for _, tc := range []struct {
		name, src string
		kind      error
		want      string
	}{
		{"no prefix", `env.T = { secret = "GITHUB_TOKEN" }`, ErrInvalid,
			`config.toml:3: tools.x.env.T.secret: "GITHUB_TOKEN": write "env:VAR" (a variable of toolhost's environment), "file:PATH" (an owner-only file) or "keyring:NAME"`},
		{"unknown kind", `env.T = { secret = "vault:kv/t" }`, ErrInvalid,
			`config.toml:3: tools.x.env.T.secret: "vault:kv/t": write "env:VAR" (a variable of toolhost's environment), "file:PATH" (an owner-only file) or "keyring:NAME"`},
		{"empty name", `env.T = { secret = "env:" }`, ErrInvalid,
			`config.toml:3: tools.x.env.T.secret: "env:" names no variable after "env:"`},
		{"not a string", `env.T = { secret = 3 }`, ErrWrongType,
			`config.toml:3: tools.x.env.T.secret: want a string, got integer 3`},
		{"typo", `env.T = { secrets = "env:A" }`, ErrUnknownKey,
			`config.toml:3: unknown key "tools.x.env.T.secrets" (did you mean "secret"?)`},
		{"extra key", `env.T = { secret = "env:A", value = "x" }`, ErrUnknownKey,
			`config.toml:3: unknown key "tools.x.env.T.value"`},
		{"empty table", `env.T = {}`, ErrInvalid,
			`config.toml:3: tools.x.env.T: a table here is a secret: write { secret = "env:VAR" }, { secret = "file:PATH" } or { secret = "keyring:NAME" }`},
		{"array", `env.T = ["a"]`, ErrWrongType,
			`config.toml:3: tools.x.env.T: want a string, got array`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("config.toml", []byte(head+tc.src+"\n"))
			if err == nil || err.Error() != tc.want || !errors.Is(err, tc.kind) {
				t.Errorf("Parse error mismatch (-want +got):\n-%s\n+%v", tc.want, err)
			}
		})
	}
}

// TestMergeSecrets: a later layer's env.NAME wins over an earlier one's,
// whichever form either has.
func TestMergeSecrets(t *testing.T) {
	cfg, _, err := loadLayers(t,
		"[defaults]\nenv = { D = \"plain\" }\n[tools.x]\ncommand = \"x\"\nenv = { A = \"plain-a\", B = { secret = \"env:B1\" }, C = { secret = \"env:C1\" } }\n",
		"[defaults]\nenv = { D = { secret = \"env:D2\" } }\n[tools.x]\nenv = { A = { secret = \"env:A2\" }, B = \"plain-b\" }\n",
	)
	if err != nil {
		t.Fatal(err)
	}
	x := cfg.Tools["x"]
	wantEnv := map[string]string{"B": "plain-b"}
	wantSecrets := map[string]secret.Ref{"A": {Kind: "env", Name: "A2"}, "C": {Kind: "env", Name: "C1"}, "D": {Kind: "env", Name: "D2"}}
	if !reflect.DeepEqual(x.Env, wantEnv) || !reflect.DeepEqual(x.Secrets, wantSecrets) {
		t.Errorf("merged env %v, secrets %v; want %v, %v", x.Env, x.Secrets, wantEnv, wantSecrets)
	}
}

func TestResolveSecrets(t *testing.T) {
	dir := t.TempDir()
	keyFile := filepath.Join(dir, "k")
	os.WriteFile(keyFile, []byte("s3cr3t-from-file\n"), 0o600)
	src := fmt.Sprintf("[tools.x]\ncommand = \"x\"\nenv.A = { secret = \"env:TOK\" }\nenv.B = { secret = \"file:%s\" }\n", keyFile)
	e := mustParse(t, src).Tools["x"]
	lookup := func(env map[string]string) *secret.Options {
		return &secret.Options{LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok }}
	}
	got, err := e.ResolveSecrets(lookup(map[string]string{"TOK": "s3cr3t-from-env"}))
	if err != nil || got["A"].Reveal() != "s3cr3t-from-env" || got["B"].Reveal() != "s3cr3t-from-file" || len(got) != 2 {
		t.Fatalf("ResolveSecrets = %v, %v", got, err)
	}
	_, err = e.ResolveSecrets(lookup(nil))
	want := `config.toml:3: env.A: secret "env:TOK": the variable TOK is not set in toolhost's environment: set it where toolhost starts (export TOK=…), or change the reference`
	if err == nil || err.Error() != want || !errors.Is(err, secret.ErrNotSet) {
		t.Errorf("ResolveSecrets error mismatch (-want +got):\n-%s\n+%v", want, err)
	}
	if got, err := (&Entry{}).ResolveSecrets(nil); got != nil || err != nil {
		t.Errorf("no secrets: %v, %v", got, err)
	}
	if strings.Contains(fmt.Sprintf("%v %+v %#v", e, e, e), "s3cr3t") {
		t.Errorf("the entry holds a secret value before resolution")
	}
}
