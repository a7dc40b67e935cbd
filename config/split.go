package config

import (
	"errors"
	"strings"
)

// SplitWords splits a TOML command string into argv tokens by shell-word
// rules, without a shell. Blanks separate words. '…' quotes literally.
// "…" quotes with backslash escaping only \ " $ and `. Outside quotes a
// backslash escapes the next character. A {{…}} template is kept whole, so
// "jp-tools {{ context }}" gives two tokens. Nothing else is special: no
// variables, globs, pipes or redirections.
func SplitWords(s string) ([]string, error) {
	var (
		words []string
		cur   strings.Builder
		in    bool // a word has started (so "" yields an empty word)
	)
	flush := func() {
		if in {
			words = append(words, cur.String())
			cur.Reset()
			in = false
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			flush()
		case c == '{' && strings.HasPrefix(s[i:], "{{"):
			end := strings.Index(s[i+2:], "}}")
			if end < 0 {
				return nil, errors.New(`unterminated {{ template`)
			}
			cur.WriteString(s[i : i+2+end+2])
			in = true
			i += 2 + end + 1
		case c == '\'':
			end := strings.IndexByte(s[i+1:], '\'')
			if end < 0 {
				return nil, errors.New("unterminated ' quote")
			}
			cur.WriteString(s[i+1 : i+1+end])
			in = true
			i += end + 1
		case c == '"':
			in = true
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\\\"$`\n", s[i+1]) >= 0 {
					i++
					if s[i] == '\n' {
						continue
					}
				}
				cur.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, errors.New(`unterminated " quote`)
			}
		case c == '\\':
			if i+1 >= len(s) {
				return nil, errors.New("trailing backslash")
			}
			i++
			if s[i] != '\n' {
				cur.WriteByte(s[i])
				in = true
			}
		default:
			cur.WriteByte(c)
			in = true
		}
	}
	flush()
	return words, nil
}

// QuoteWord quotes s for [SplitWords] when it needs quoting: the result
// splits back into exactly s.
func QuoteWord(s string) string {
	if s == "" {
		return "''"
	}
	if !strings.ContainsAny(s, " \t\r\n'\"\\{") {
		return s
	}
	if strings.HasPrefix(s, "{{") && strings.HasSuffix(s, "}}") && strings.Count(s, "}}") == 1 && !strings.ContainsAny(s, "'\"\\") {
		return s
	}
	if !strings.Contains(s, "'") && !strings.Contains(s, "{{") {
		return "'" + s + "'"
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		if strings.IndexByte("\\\"$`", s[i]) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	b.WriteByte('"')
	return b.String()
}
