package sdk

import (
	"strings"
)

// formatArgs is the default formatter for "format_arguments". It writes one
// line "name: value" per argument given or defaulted, in struct-field
// order. Single-line strings are shown bare. Multi-line strings are an
// indented block. Other values are compact JSON.
func formatArgs(order []string, args map[string]any) string {
	var b strings.Builder
	for _, name := range order {
		v, ok := args[name]
		if !ok {
			continue
		}
		b.WriteString(name)
		b.WriteString(":")
		switch s, isString := v.(string); {
		case isString && strings.Contains(s, "\n"):
			b.WriteString(" |\n")
			for line := range strings.Lines(s) {
				b.WriteString("  ")
				b.WriteString(strings.TrimSuffix(line, "\n"))
				b.WriteString("\n")
			}
			continue
		case isString:
			b.WriteString(" ")
			b.WriteString(s)
		default:
			b.WriteString(" ")
			b.WriteString(jsonText(v))
		}
		b.WriteString("\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}
