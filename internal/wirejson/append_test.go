package wirejson

import (
	"bytes"
	"encoding/json"
	"testing"
)

// quoted is s as encoding/json quotes it with SetEscapeHTML(false).
func quoted(t testing.TB, s string) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		t.Fatal(err)
	}
	return string(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
}

func TestAppendString(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"", `""`},
		{"plain", `"plain"`},
		{`q"b\`, `"q\"b\\"`},
		{"\b\f\n\r\t\x00\x1f", `"\b\f\n\r\t\u0000\u001f"`},
		{"<a&b>", `"<a&b>"`},
		{"bad\xffutf8", `"bad\ufffdutf8"`},
		{"line\u2028para\u2029", `"line\u2028para\u2029"`},
		{"héllo ☃", `"héllo ☃"`},
	} {
		if got := string(AppendString([]byte("x"), tt.in)); got != "x"+tt.want {
			t.Errorf("AppendString(%q) = %s, want x%s", tt.in, got, tt.want)
		}
		if q := quoted(t, tt.in); q != tt.want {
			t.Errorf("encoding/json quotes %q as %s, the table says %s", tt.in, q, tt.want)
		}
	}
}

// FuzzAppendString: AppendString quotes every string as encoding/json does.
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "a\"b", "\x00\u2028", "\xff\xfe", "日本"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := string(AppendString(nil, s)), quoted(t, s); got != want {
			t.Errorf("AppendString(%q) = %s, encoding/json: %s", s, got, want)
		}
	})
}
