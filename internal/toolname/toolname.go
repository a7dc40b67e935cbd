package toolname

// Pattern is the tool name rule LLM providers accept, as shown in
// messages. A name has 1 to 64 ASCII letters, digits, '_' or '-'.
const Pattern = `^[a-zA-Z0-9_-]{1,64}$`

// Valid reports whether name matches [Pattern]. It is the one home of the
// rule. The catalog, the CLI and the SDK all call it. It uses no regexp.
// Compiling one at init would cost every SDK tool binary start-up time.
func Valid(name string) bool {
	if len(name) == 0 || len(name) > 64 {
		return false
	}
	for _, c := range []byte(name) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}
