package invoke

import (
	"fmt"
	"strings"
)

// SplitCommand splits a command string into argv tokens the way a POSIX
// shell splits words, without running a shell: blanks separate words,
// single quotes keep everything literally, double quotes keep everything
// but \" \\ \$ \` and backslash-newline, and a backslash outside quotes
// escapes the next character (backslash-newline joins lines). Nothing is
// expanded: $VAR, $(…), ~, globs, ; | & and # are ordinary characters.
// An unterminated quote or a trailing backslash is an error.
//
//	SplitCommand(`bin/x --name "a b" 'c d'`) → ["bin/x", "--name", "a b", "c d"]
func SplitCommand(s string) ([]string, error) {
	var (
		args   []string
		cur    strings.Builder
		inWord bool
	)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case ' ', '\t', '\n', '\r':
			if inWord {
				args = append(args, cur.String())
				cur.Reset()
				inWord = false
			}
		case '\\':
			if i+1 >= len(s) {
				return nil, fmt.Errorf("command %q: trailing backslash escapes nothing", s)
			}
			i++
			if s[i] == '\n' {
				continue // line continuation
			}
			cur.WriteByte(s[i])
			inWord = true
		case '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("command %q: unterminated single quote at offset %d", s, i)
			}
			cur.WriteString(s[i+1 : i+1+j])
			inWord = true
			i += j + 1
		case '"':
			start := i
			inWord = true
			for i++; ; i++ {
				if i >= len(s) {
					return nil, fmt.Errorf("command %q: unterminated double quote at offset %d", s, start)
				}
				if s[i] == '"' {
					break
				}
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`\n", s[i+1]) >= 0 {
					i++
					if s[i] == '\n' {
						continue
					}
				}
				cur.WriteByte(s[i])
			}
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		args = append(args, cur.String())
	}
	return args, nil
}

// shellQuote quotes s for /bin/sh so that it is one word with no expansion.
// Words made only of safe characters are left bare.
func shellQuote(s string) string {
	if s == "" {
		return "''"
	}
	safe := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
			strings.IndexByte("_-./,:@%+", c) >= 0) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
