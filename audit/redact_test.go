package audit

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSecretKey(t *testing.T) {
	for key, want := range map[string]bool{
		"token": true, "GITHUB_TOKEN": true, "api_key": true, "x-api-key": true, "apiKey": true,
		"clientSecret": true, "db.password": true, "Authorization": true, "cookie": true,
		"aws_secret_access_key": true, "private_key": true, "oauth": true, "credentials": true,
		"max_tokens": false, "author": false, "path": false, "key": false, "password_hint": false,
		"tokens": false, "": false, "secretary": false,
	} {
		if got := secretKey(key); got != want {
			t.Errorf("secretKey(%q) = %v, want %v", key, got, want)
		}
	}
}

func TestRedact(t *testing.T) {
	for _, tc := range []struct {
		name, args string
		secrets    []string
		want       string
	}{
		{"nothing to redact", `{"path":"a.txt","limit":10}`, nil, `{"path":"a.txt","limit":10}`},
		{"kept as sent (numbers keep their digits)", `{"n":1.50,"big":12345678901234567890}`, []string{"zzz"}, `{"n":1.50,"big":12345678901234567890}`},
		{"pretty-printed made one line", "{\n  \"a\": 1\n}", nil, `{"a":1}`},
		{"secret-named key", `{"path":"a","token":"abc"}`, nil, `{"path":"a","token":"[redacted]"}`},
		{"secret-named key, any type and depth", `{"cfg":{"Api-Key":{"x":1},"list":[{"password":7}]}}`, nil,
			`{"cfg":{"Api-Key":"[redacted]","list":[{"password":"[redacted]"}]}}`},
		{"registered value inside a string", `{"cmd":"curl -H 'X: hunter22' x","n":1}`, []string{"hunter22"},
			`{"cmd":"curl -H 'X: [redacted]' x","n":1}`},
		{"registered value with JSON escapes", `{"q":"a\"b\\c and more"}`, []string{`a"b\c`}, `{"q":"[redacted] and more"}`},
		{"registered value as a key's value in an array", `["hunter22","ok"]`, []string{"hunter22"}, `["[redacted]","ok"]`},
		{"numbers are not strings: a digit secret leaves numbers alone", `{"n":1234}`, []string{"1234"}, `{"n":1234}`},
		{"registered value spelled with escapes", `{"q":"\u0068unter22","p":"a\/b"}`, []string{"hunter22", "a/b"}, `{"q":"[redacted]","p":"[redacted]"}`},
		{"registered value as a key", `{"hunter22":{"x":"y"}}`, []string{"hunter22"}, `{"[redacted]":{"x":"y"}}`},
		{"escapes without registered values: kept as sent", `{"q":"\u0068i"}`, nil, `{"q":"\u0068i"}`},
		{"order, duplicates and every type kept", `{"z":[true,false,null,{"a":[]}],"token":[1,{"x":[2]}],"y":-1.5e3,"z":{}}`, nil,
			`{"z":[true,false,null,{"a":[]}],"token":"[redacted]","y":-1.5e3,"z":{}}`},
		{"nested secret-named keys in a row", `[{"password":{"a":1},"pwd":[],"n":{"token":"t"}}]`, nil,
			`[{"password":"[redacted]","pwd":"[redacted]","n":{"token":"[redacted]"}}]`},
		{"not JSON: a string, redacted", `tok=hunter22 {`, []string{"hunter22"}, `"tok=[redacted] {"`},
		{"empty", ``, nil, ``},
		{"null", `null`, nil, `null`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := string(Redact([]byte(tc.args), tc.secrets))
			if got != tc.want {
				t.Errorf("Redact(%s, %q) mismatch (-want +got):\n-%s\n+%s", tc.args, tc.secrets, tc.want, got)
			}
		})
	}
}

// TestMayHoldSecretKeyScreens: the quick screen lets through every input
// where a key is secret-named (it may also let through others).
func TestMayHoldSecretKeyScreens(t *testing.T) {
	for _, s := range secretSuffixes {
		spread := strings.Join(strings.Split(s, ""), "_") // a_p_i_k_e_y: secretKey drops separators
		for _, key := range []string{s, strings.ToUpper(s), "x_" + s, spread, s + "__", "X-" + strings.ToUpper(spread)} {
			args := `{"` + key + `":"v"}`
			if !mayHoldSecretKey([]byte(args)) {
				t.Errorf("mayHoldSecretKey(%s) = false, but the key is secret-named", args)
			}
		}
	}
	if mayHoldSecretKey([]byte(`{"path":"a.txt","limit":10}`)) {
		t.Errorf("mayHoldSecretKey of plain arguments = true, want false (they would be decoded on every call)")
	}
}

func TestCapArguments(t *testing.T) {
	for _, tc := range []struct {
		args     string
		max      int
		want     string
		wantSize int
	}{
		{`{"a":"bc"}`, 100, `{"a":"bc"}`, 0},
		{`{"a":"bcdef"}`, 8, `"{\"a\":\"bc"`, 13},
		{`{"a":"ééé"}`, 9, `"{\"a\":\"é"`, 14}, // cut before the é that straddles byte 9
	} {
		got, size := capArguments([]byte(tc.args), tc.max)
		if string(got) != tc.want || size != tc.wantSize {
			t.Errorf("capArguments(%s, %d) = %s, %d; want %s, %d", tc.args, tc.max, got, size, tc.want, tc.wantSize)
		}
	}
}

func FuzzRedact(f *testing.F) {
	f.Add(`{"token":"x","a":[1,"hunter22"]}`, "hunter22")
	f.Add(`{"q":"\u0068unter22"}`, "hunter22")
	f.Add(`not json`, "")
	f.Fuzz(func(t *testing.T, args, secret string) {
		out := Redact([]byte(args), []string{secret})
		if len(out) > 0 && !json.Valid(out) {
			t.Fatalf("Redact(%q, %q) = %q: not JSON", args, secret, out)
		}
		if secret == "" || !utf8.ValidString(secret) || strings.ContainsAny(secret, "[]") || strings.Contains(redacted, secret) || len(out) == 0 {
			return // the mask itself could spell the secret
		}
		var v any
		json.Unmarshal(out, &v)
		var walk func(any)
		walk = func(v any) {
			switch v := v.(type) {
			case string:
				if strings.Contains(v, secret) {
					t.Fatalf("Redact(%q, %q) = %s: the secret is still in %q", args, secret, out, v)
				}
			case []any:
				for _, x := range v {
					walk(x)
				}
			case map[string]any:
				for k, x := range v {
					walk(k)
					walk(x)
				}
			}
		}
		walk(v)
	})
}
