package secret

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    Ref
		wantErr string
	}{
		{"env:GITHUB_TOKEN", Ref{KindEnv, "GITHUB_TOKEN"}, ""},
		{"file:/home/ada/.gh", Ref{KindFile, "/home/ada/.gh"}, ""},
		{"file:rel/x:y", Ref{KindFile, "rel/x:y"}, ""},
		{"keyring:github", Ref{KindKeyring, "github"}, ""},
		{"GITHUB_TOKEN", Ref{}, `not a secret reference: "GITHUB_TOKEN": write "env:VAR" (a variable of toolhost's environment), "file:PATH" (an owner-only file) or "keyring:NAME"`},
		{"vault:x", Ref{}, `not a secret reference: "vault:x": write "env:VAR" (a variable of toolhost's environment), "file:PATH" (an owner-only file) or "keyring:NAME"`},
		{"env:", Ref{}, `not a secret reference: "env:" names no variable after "env:"`},
		{"file:", Ref{}, `not a secret reference: "file:" names no file after "file:"`},
		{"keyring:", Ref{}, `not a secret reference: "keyring:" names no keyring item after "keyring:"`},
		{"keyring:-x", Ref{}, `not a secret reference: "keyring:-x": a keyring item's name does not start with "-" (the keyring's client would read it as an option)`},
		{"env:A=B", Ref{}, `not a secret reference: "env:A=B": a variable name has no "=" or NUL`},
		{"file:a\x00b", Ref{}, `not a secret reference: "file:a\x00b": a name has no NUL`},
	} {
		got, err := Parse(tc.in)
		if tc.wantErr != "" {
			if err == nil || err.Error() != tc.wantErr || !errors.Is(err, ErrSyntax) {
				t.Errorf("Parse(%q) error = %v, want %q (ErrSyntax)", tc.in, err, tc.wantErr)
			}
			continue
		}
		if err != nil || got != tc.want || got.String() != tc.in {
			t.Errorf("Parse(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}

// writeSecret writes a secret file with mode perm.
func writeSecret(t *testing.T, dir, name, content string, perm os.FileMode) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, perm); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestResolve(t *testing.T) {
	dir := t.TempDir()
	ok := writeSecret(t, dir, "ok", "s3cr3t-file\n", 0o600)
	crlf := writeSecret(t, dir, "crlf", "two\nlines\r\n", 0o400)
	open := writeSecret(t, dir, "open", "s3cr3t-open", 0o644)
	group := writeSecret(t, dir, "group", "s3cr3t-group", 0o640)
	big := writeSecret(t, dir, "big", strings.Repeat("x", maxFile+1), 0o600)
	os.MkdirAll(filepath.Join(dir, "home"), 0o700)
	writeSecret(t, dir, "home/tok", "from-home", 0o600)
	env := map[string]string{"TOKEN": "s3cr3t-env", "EMPTY": ""}
	opts := &Options{LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok }, Home: filepath.Join(dir, "home")}
	for _, tc := range []struct {
		ref     Ref
		want    string
		wantErr string
		is      error
	}{
		{Ref{KindEnv, "TOKEN"}, "s3cr3t-env", "", nil},
		{Ref{KindEnv, "EMPTY"}, "", "", nil},
		{Ref{KindEnv, "MISSING"}, "", `secret "env:MISSING": the variable MISSING is not set in toolhost's environment: set it where toolhost starts (export MISSING=…), or change the reference`, ErrNotSet},
		{Ref{KindFile, ok}, "s3cr3t-file", "", nil},
		{Ref{KindFile, crlf}, "two\nlines", "", nil},
		{Ref{KindFile, "~/tok"}, "from-home", "", nil},
		{Ref{KindFile, open}, "", fmt.Sprintf(`secret "file:%s": %s has mode 0644, open to others: not an owner-only file; make it owner-only with chmod 600 %s`, open, open, open), ErrPermissions},
		{Ref{KindFile, group}, "", fmt.Sprintf(`secret "file:%s": %s has mode 0640, open to others: not an owner-only file; make it owner-only with chmod 600 %s`, group, group, group), ErrPermissions},
		{Ref{KindFile, dir + "/none"}, "", fmt.Sprintf(`secret "file:%s/none": %s/none does not exist: create it (owner-only: chmod 600 %s/none) or change the reference`, dir, dir, dir), nil},
		{Ref{KindFile, dir}, "", fmt.Sprintf(`secret "file:%s": %s is not a regular file`, dir, dir), nil},
		{Ref{KindFile, big}, "", fmt.Sprintf(`secret "file:%s": %s is larger than 64 KiB, too large for a secret`, big, big), nil},
	} {
		v, err := tc.ref.Resolve(opts)
		if tc.wantErr != "" {
			if err == nil || err.Error() != tc.wantErr || (tc.is != nil && !errors.Is(err, tc.is)) {
				t.Errorf("Resolve(%v) error = %v, want %q", tc.ref, err, tc.wantErr)
			}
			if err != nil && strings.Contains(err.Error(), "s3cr3t") {
				t.Errorf("Resolve(%v) error shows the secret: %v", tc.ref, err)
			}
			continue
		}
		if err != nil || v.Reveal() != tc.want {
			t.Errorf("Resolve(%v) = %q, %v; want %q", tc.ref, v.Reveal(), err, tc.want)
		}
	}
}

// TestResolveOwner: a file of another user is refused even when
// owner-only (needs root to give the file away).
func TestResolveOwner(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("giving a file to another user needs root")
	}
	p := writeSecret(t, t.TempDir(), "theirs", "s3cr3t", 0o600)
	if err := os.Chown(p, 4242, 4242); err != nil {
		t.Fatal(err)
	}
	_, err := Ref{KindFile, p}.Resolve(nil)
	want := fmt.Sprintf(`secret "file:%s": %s belongs to uid 4242, not to you (uid 0): not an owner-only file; give it to your user (chown) or keep the secret in a file of your own, chmod 600`, p, p)
	if err == nil || err.Error() != want || !errors.Is(err, ErrPermissions) {
		t.Errorf("Resolve = %v, want %q", err, want)
	}
}

// TestValueNeverPrints: every printing path shows the mask, never the text.
func TestValueNeverPrints(t *testing.T) {
	v := Value{v: "s3cr3t-planted"}
	type holder struct {
		Name  string
		Value Value
		Ptr   *Value
	}
	h := holder{"x", v, &v}
	var outs []string
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "%d", "%10.3s", "%T"} {
		outs = append(outs, fmt.Sprintf(verb, v), fmt.Sprintf(verb, h), fmt.Sprintf(verb, &v))
	}
	outs = append(outs, fmt.Sprint(v), fmt.Sprintln(v, h), v.String(), v.GoString())
	j, _ := json.Marshal(h)
	outs = append(outs, string(j))
	m, _ := json.Marshal(map[string]Value{"k": v})
	outs = append(outs, string(m))
	var logged strings.Builder
	slog.New(slog.NewTextHandler(&logged, nil)).Info("call", "v", v, "h", h)
	slog.New(slog.NewJSONHandler(&logged, nil)).Info("call", "v", v)
	outs = append(outs, logged.String())
	for _, o := range outs {
		if strings.Contains(o, "s3cr3t") || strings.Contains(o, "73336372337") /* hex */ {
			t.Errorf("printed the secret: %s", o)
		}
	}
	if got := fmt.Sprintf("%v", v); got != Masked {
		t.Errorf("%%v = %q, want %q", got, Masked)
	}
	if string(j) != `{"Name":"x","Value":"[secret]","Ptr":"[secret]"}` {
		t.Errorf("json = %s", j)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"env:X", "file:/a", "keyring:k", "x", ":", "env:"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := Parse(s)
		if err == nil && r.String() != s {
			t.Fatalf("Parse(%q) = %v, does not print back", s, r)
		}
	})
}
