package config

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"

	"github.com/BurntSushi/toml"
)

// ErrNotInFile: the file has no [tools.NAME] or [toolsets.NAME] entry of
// that name.
var ErrNotInFile = errors.New("no such entry in the file")

// RemoveEntry unregisters NAME for `toolhost remove`. It deletes the
// [tools.NAME] entry of file, else its [toolsets.NAME] entry, and returns
// "tools" or "toolsets". What goes is the entry's table, its sub-tables
// ([tools.NAME.parameters.x], wherever they are in the file), and the
// comment lines right above each of their headers (no blank line between).
// Every other byte stays as it was, other entries' comments included. The
// write is atomic, as [AppendTool]'s.
//
// It returns an error matching [ErrNotInFile] when the file has no such
// entry, and one matching [fs.ErrPermission] when the file is read-only.
// It refuses, changing nothing, in two cases. One is an entry not written
// as tables of its own: tools.NAME = {…}, or keys under a [tools] table.
// The other is a change to anything but the entry: the file decoded before
// and after must differ by the entry alone.
func RemoveEntry(file, name string) (section string, err error) {
	target := file
	if t, err := filepath.EvalSymlinks(file); err == nil {
		target = t
	}
	old, err := os.ReadFile(target)
	if err != nil {
		return "", fmt.Errorf("config: remove %q: %w", name, err)
	}
	layer, err := parseLayer(file, old)
	if err != nil {
		return "", fmt.Errorf("config: cannot remove %q from %s: %w", name, file, err)
	}
	var e *Entry
	switch {
	case layer.Tools[name] != nil:
		section, e = "tools", layer.Tools[name]
	case layer.Toolsets[name] != nil:
		section, e = "toolsets", layer.Toolsets[name]
	default:
		return "", fmt.Errorf("config: %s: %q: %w", file, name, ErrNotInFile)
	}
	data := cutEntry(old, scanKeys(old).headers, section, name)
	var before, after map[string]any
	_, err1 := toml.Decode(string(old), &before)
	_, err2 := toml.Decode(string(data), &after)
	if err1 != nil || err2 != nil || !sameWithout(before, after, section, name) {
		return "", fmt.Errorf("config: %s: cannot remove %s %q by itself: its entry is not written as a [%s] table of its own; remove it by hand",
			e.Place, map[string]string{"tools": "tool", "toolsets": "toolset"}[section], name, dotted([]string{section, name}))
	}
	if _, err := parseLayer(file, data); err != nil { // never write what we cannot read back
		return "", fmt.Errorf("config: remove %q from %s: %w", name, file, err)
	}
	mode := fs.FileMode(0o644)
	if info, err := os.Stat(target); err == nil {
		mode = info.Mode().Perm()
	}
	if mode&0o200 == 0 { // the rename would replace it all the same: respect the mode
		return "", fmt.Errorf("config: %s is read-only: %w", file, fs.ErrPermission)
	}
	return section, writeAtomic(target, data, mode)
}

// cutEntry returns data without the tables of section.name (see
// [RemoveEntry]): each runs from its header, with the comment lines right
// above it, to the next header's comment lines or header.
func cutEntry(data []byte, headers []tableHeader, section, name string) []byte {
	starts := make([]int, len(headers)) // each header's line start, comments above included
	for i, h := range headers {
		starts[i] = attachedStart(data, lineStart(data, h.start))
	}
	var out []byte
	last := 0
	keep := func(seg []byte) { // one blank line where a cut joins, not two
		if last > 0 {
			for len(seg) > 0 && seg[0] == '\n' && (len(out) == 0 || bytes.HasSuffix(out, []byte("\n\n"))) {
				seg = seg[1:]
			}
		}
		out = append(out, seg...)
	}
	for i, h := range headers {
		if len(h.key) < 2 || h.key[0] != section || h.key[1] != name {
			continue
		}
		end := len(data)
		if i+1 < len(headers) {
			end = starts[i+1]
		}
		end = bodyEnd(data, h.start, end)
		if starts[i] < last {
			continue
		}
		keep(data[last:starts[i]])
		last = end
	}
	n := len(out)
	keep(data[last:])
	if len(out) == n { // the entry was last: no blank lines at the end
		out = append(bytes.TrimRight(out, "\n"), '\n')
		if len(bytes.TrimSpace(out)) == 0 {
			out = out[:0]
		}
	}
	return out
}

// bodyEnd returns where the table whose header is at start ends, given
// that the next table, or the end of the file, is at end. The body ends
// after its last line that is neither blank nor a comment, and the comment
// lines right below it. Blank lines and comments set apart by one after it
// are kept.
func bodyEnd(data []byte, start, end int) int {
	last := start
	comments := false // the lines since last are comments only, without a blank
	for ls := start; ls < end; {
		le := bytes.IndexByte(data[ls:end], '\n')
		if le < 0 {
			le = end
		} else {
			le += ls + 1
		}
		switch line := bytes.TrimSpace(data[ls:le]); {
		case len(line) == 0:
			comments = false
		case line[0] == '#':
			if comments || last == ls {
				last, comments = le, true
			}
		default:
			last, comments = le, false
		}
		ls = le
	}
	return last
}

// lineStart returns the offset of the start of the line holding off.
func lineStart(data []byte, off int) int {
	return bytes.LastIndexByte(data[:off], '\n') + 1
}

// attachedStart moves the line start ls up over the comment lines right
// above it (no blank line between).
func attachedStart(data []byte, ls int) int {
	for ls > 0 {
		prev := lineStart(data, ls-1)
		line := bytes.TrimSpace(data[prev : ls-1])
		if len(line) == 0 || line[0] != '#' {
			break
		}
		ls = prev
	}
	return ls
}

// sameWithout reports whether after is before without section.name (an
// emptied section table counting as absent).
func sameWithout(before, after map[string]any, section, name string) bool {
	if sec, ok := before[section].(map[string]any); ok {
		delete(sec, name)
		if len(sec) == 0 {
			delete(before, section)
		}
	}
	if sec, ok := after[section].(map[string]any); ok && len(sec) == 0 {
		delete(after, section)
	}
	return reflect.DeepEqual(before, after)
}
