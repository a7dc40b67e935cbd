package config

import (
	"slices"
	"testing"
)

func TestSplitWords(t *testing.T) {
	tests := []struct {
		in      string
		want    []string
		wantErr string
	}{
		{"", nil, ""},
		{"  a   b\tc\n", []string{"a", "b", "c"}, ""},
		{`a 'b c' "d e"`, []string{"a", "b c", "d e"}, ""},
		{`'' ""`, []string{"", ""}, ""},
		{`a\ b`, []string{"a b"}, ""},
		{`"a\"b\\c\$d\e"`, []string{`a"b\c$d\e`}, ""},
		{`'a\b'`, []string{`a\b`}, ""},
		{`x'y'"z"`, []string{"xyz"}, ""},
		{"jp {{ context }} {{tool.arguments.x}}", []string{"jp", "{{ context }}", "{{tool.arguments.x}}"}, ""},
		{"--arg={{ tool }}", []string{"--arg={{ tool }}"}, ""},
		{"a 'b", nil, "unterminated ' quote"},
		{`a "b`, nil, `unterminated " quote`},
		{`a \`, nil, "trailing backslash"},
		{"a {{ b", nil, "unterminated {{ template"},
	}
	for _, tt := range tests {
		got, err := SplitWords(tt.in)
		if tt.wantErr != "" {
			if err == nil || err.Error() != tt.wantErr {
				t.Errorf("SplitWords(%q) error = %v, want %q", tt.in, err, tt.wantErr)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("SplitWords(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

func FuzzQuoteWord(f *testing.F) {
	for _, s := range []string{"", "a", "a b", `it's "x"`, "{{tool}}", "{{ a }}", "a{{b", `\`, "$x`y`"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := SplitWords(QuoteWord(s))
		if err != nil || len(got) != 1 || got[0] != s {
			t.Errorf("SplitWords(QuoteWord(%q)) = %q, %v", s, got, err)
		}
	})
}
