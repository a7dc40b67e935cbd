package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/toolhost/toolhost/internal/atomicfile"
)

// AppendTool registers a tool for `toolhost add`: it appends
//
//	[tools.NAME]
//	command = "…"          # a string when every token is plain, else an array
//	tool = "TOOLNAME"      # only when toolName is set and differs from name
//
// to file, leaving the bytes already there (comments included) untouched.
// The file and its directory are created when missing. It refuses when the
// file is not valid configuration or already has [tools.NAME]. The write
// is atomic (a temporary file renamed over the original, whose mode is
// kept; a symlink is followed). It returns the bytes it wrote, the whole
// file: what the person asked for is these bytes, whatever the file holds
// by the time the caller looks again.
func AppendTool(file, name string, command []string, toolName string) ([]byte, error) {
	return appendEntry(file, "tools", name, command, [][2]string{{"tool", toolName}})
}

// AppendToolset registers a multi-tool binary for `toolhost add --toolset`,
// as [AppendTool] does a tool: it appends
//
//	[toolsets.NAME]
//	command = "…"
//	prefix = "PREFIX"      # only when prefix is set
//
// and refuses when the file already has [toolsets.NAME]. It returns the
// bytes it wrote.
func AppendToolset(file, name string, command []string, prefix string) ([]byte, error) {
	return appendEntry(file, "toolsets", name, command, [][2]string{{"prefix", prefix}})
}

// appendEntry appends [section.name] with command and the string keys
// that are set, for [AppendTool] and [AppendToolset].
func appendEntry(file, section, name string, command []string, keys [][2]string) ([]byte, error) {
	what := map[string]string{"tools": "tool", "toolsets": "toolset"}[section]
	if name == "" {
		return nil, errors.New("config: add: empty tool name")
	}
	if len(command) == 0 || command[0] == "" {
		return nil, fmt.Errorf("config: add %q: empty command", name)
	}
	var text strings.Builder
	fmt.Fprintf(&text, "[%s]\n", dotted([]string{section, name}))
	fmt.Fprintf(&text, "command = %s\n", CommandValue(command))
	for _, kv := range keys {
		if kv[1] != "" && !(kv[0] == "tool" && kv[1] == name) {
			fmt.Fprintf(&text, "%s = %s\n", kv[0], tomlString(kv[1]))
		}
	}
	check := func(layer *Config) error {
		entries := layer.Tools
		if section == "toolsets" {
			entries = layer.Toolsets
		}
		if e, ok := entries[name]; ok {
			return fmt.Errorf("config: %s: %s %q already exists in %s; edit it there or choose another name", e.Place, what, name, file)
		}
		return nil
	}
	return appendText(file, fmt.Sprintf("add %q", name), fmt.Sprintf("add %q to", name), check, text.String())
}

// appendText appends text, a block of tables, to the configuration file
// (through a symlink; created with its directory when missing) after
// check accepted the layer as it is, and only when the result still
// parses. It writes atomically, keeping the file's mode, and returns the
// bytes it wrote. op names the edit in errors ("import", `add "x"`), into
// with its file ("import into", `add "x" to`).
func appendText(file, op, into string, check func(*Config) error, text string) ([]byte, error) {
	target := file
	if t, err := filepath.EvalSymlinks(file); err == nil {
		target = t
	}
	mode := fs.FileMode(0o644)
	old, err := os.ReadFile(target)
	switch {
	case err == nil:
		if info, err := os.Stat(target); err == nil {
			mode = info.Mode().Perm()
		}
		layer, err := parseLayer(file, old)
		if err != nil {
			return nil, fmt.Errorf("config: cannot %s %s: %w", into, file, err)
		}
		if err := check(layer); err != nil {
			return nil, err
		}
	case errors.Is(err, fs.ErrNotExist):
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return nil, fmt.Errorf("config: %s: %w", op, err)
		}
	default:
		return nil, fmt.Errorf("config: %s: %w", op, err)
	}
	var b strings.Builder
	b.Write(old)
	if len(old) > 0 {
		if old[len(old)-1] != '\n' {
			b.WriteByte('\n')
		}
		b.WriteByte('\n')
	}
	b.WriteString(text)
	data := []byte(b.String())
	if _, err := parseLayer(file, data); err != nil { // never write what we cannot read back
		return nil, fmt.Errorf("config: %s %s: %w", into, file, err)
	}
	if err := writeAtomic(target, data, mode); err != nil {
		return nil, err
	}
	return data, nil
}

// CommandValue writes command as a TOML value: a string when it splits
// back into the same tokens without quoting, else an array. An entry's
// command = CommandValue(argv) runs argv as it is.
func CommandValue(command []string) string {
	plain := true
	for _, a := range command {
		if a == "" || QuoteWord(a) != a || strings.ContainsAny(a, " \t") {
			plain = false
		}
	}
	if plain {
		return tomlString(strings.Join(command, " "))
	}
	parts := make([]string, len(command))
	for i, a := range command {
		parts[i] = tomlString(a)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func writeAtomic(file string, data []byte, mode fs.FileMode) error {
	if err := atomicfile.Write(file, data, mode); err != nil {
		return fmt.Errorf("config: %w", err)
	}
	return nil
}

// tomlString quotes s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			if r < 0x20 || r == 0x7f {
				fmt.Fprintf(&b, `\u%04X`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}
