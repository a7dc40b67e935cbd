package toolname

import "regexp"

// Pattern is the tool name rule LLM providers accept, as shown in
// messages: 1 to 64 ASCII letters, digits, '_' or '-'.
const Pattern = `^[a-zA-Z0-9_-]{1,64}$`

var pattern = regexp.MustCompile(Pattern)

// Valid reports whether name matches [Pattern].
func Valid(name string) bool { return pattern.MatchString(name) }
