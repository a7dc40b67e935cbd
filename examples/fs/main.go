// Command fs serves four file tools from one binary, all confined to the
// workspace root (context.root): read_file, list_files, grep_files and
// write_file. A path that leaves the root, by ".." or through a symbolic
// link, is an error outcome. write_file asks before overwriting a file,
// and refuses to write into .git and .config/toolhost: the files there run
// commands (git hooks, toolhost's own tool entries), and a model that can
// write them could run anything.
//
// Register every tool it offers with one entry:
//
//	[toolsets.fs]
//	command = "bin/fs"
package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/toolhost/toolhost/sdk"
)

// Tools are the tools this binary serves, in the order "schema" lists them.
var Tools = []*sdk.Tool{
	sdk.New("read_file", "Read a text file in the workspace.", ReadFile, &sdk.Options[ReadInput]{
		Description: "Returns the file's lines, starting at offset (0-based), at most limit of them.",
		Annotations: map[string]any{"readOnlyHint": true},
	}),
	sdk.New("list_files", "List files under a directory of the workspace.", ListFiles, &sdk.Options[ListInput]{
		Description: "One path per line, relative to the workspace root; directories end in /. Skips .git.",
		Annotations: map[string]any{"readOnlyHint": true},
	}),
	sdk.New("grep_files", "Search files for a regular expression.", GrepFiles, &sdk.Options[GrepInput]{
		Title:       "Search files",
		Description: "Prints path:line: text for each matching line, in path order, and returns the matches as structured output. Reports its progress over the files.",
		Annotations: map[string]any{"readOnlyHint": true},
	}),
	sdk.New("write_file", "Write a text file in the workspace.", WriteFile, &sdk.Options[WriteInput]{
		Description: "Creates the file and its directories; asks before overwriting an existing file. Never writes into .git or .config/toolhost.",
		Annotations: map[string]any{"destructiveHint": true},
		Format:      FormatWrite,
	}),
}

func main() { sdk.Main(Tools...) }

// ReadInput holds read_file's parameters.
type ReadInput struct {
	Path   string `json:"path" jsonschema:"description=File to read\\, relative to the workspace root."`
	Offset int    `json:"offset,omitempty" jsonschema:"description=First line to return (0-based).,minimum=0,default=0"`
	Limit  int    `json:"limit,omitempty" jsonschema:"description=Most lines to return.,minimum=1,default=2000"`
}

// ReadFile returns lines of a file.
func ReadFile(ctx context.Context, in ReadInput) (string, error) {
	root, name, err := open(ctx, in.Path)
	if err != nil {
		return "", err
	}
	defer root.Close()
	data, err := root.ReadFile(name)
	if err != nil {
		return "", fmt.Errorf("reading %s: %w", in.Path, unwrapPath(err))
	}
	lines := strings.SplitAfter(string(data), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if in.Offset >= len(lines) {
		return "", nil
	}
	end := min(len(lines), in.Offset+in.Limit)
	return strings.Join(lines[in.Offset:end], ""), nil
}

// ListInput holds list_files's parameters.
type ListInput struct {
	Dir   string `json:"dir,omitempty" jsonschema:"description=Directory to list\\, relative to the workspace root.,default=."`
	Glob  string `json:"glob,omitempty" jsonschema:"description=Only names matching this pattern (path.Match syntax\\, e.g. *.go)."`
	Limit int    `json:"limit,omitempty" jsonschema:"description=Most entries to return.,minimum=1,default=1000"`
}

// ListFiles lists the files under a directory.
func ListFiles(ctx context.Context, in ListInput) (string, error) {
	var b strings.Builder
	n := 0
	err := walk(ctx, in.Dir, in.Glob, func(fsys fs.FS, p string, d fs.DirEntry) error {
		if n == in.Limit {
			fmt.Fprintf(&b, "… (limit of %d entries reached)\n", in.Limit)
			return fs.SkipAll
		}
		n++
		if d.IsDir() {
			p += "/"
		}
		b.WriteString(p + "\n")
		return nil
	})
	return b.String(), err
}

// GrepInput holds grep_files's parameters.
type GrepInput struct {
	Pattern string `json:"pattern" jsonschema:"description=A Go regular expression (RE2 syntax).,minLength=1"`
	Dir     string `json:"dir,omitempty" jsonschema:"description=Directory to search\\, relative to the workspace root.,default=."`
	Glob    string `json:"glob,omitempty" jsonschema:"description=Only files whose name matches this pattern (e.g. *.go)."`
	Limit   int    `json:"limit,omitempty" jsonschema:"description=Most matching lines to return.,minimum=1,default=100"`
}

// maxGrepSize is the size of the largest file grep_files reads.
const maxGrepSize = 8 << 20

// GrepResult is grep_files's structured output.
type GrepResult struct {
	Matches []GrepMatch `json:"matches" jsonschema:"description=The matching lines\\, in path order."`
	// Truncated says that the limit was reached: there may be more matches.
	Truncated bool `json:"truncated" jsonschema:"description=The limit was reached: there may be more matches."`
}

// GrepMatch is one matching line.
type GrepMatch struct {
	Path string `json:"path" jsonschema:"description=The file\\, relative to the workspace root."`
	Line int    `json:"line" jsonschema:"description=The line number (1-based).,minimum=1"`
	Text string `json:"text" jsonschema:"description=The line."`
}

// String is the text content, for protocol v1 hosts and humans: one
// "path:line: text" line per match.
func (r GrepResult) String() string {
	if len(r.Matches) == 0 {
		return "no matches"
	}
	var b strings.Builder
	for _, m := range r.Matches {
		fmt.Fprintf(&b, "%s:%d: %s\n", m.Path, m.Line, m.Text)
	}
	if r.Truncated {
		fmt.Fprintf(&b, "… (limit of %d matches reached)\n", len(r.Matches))
	}
	return b.String()
}

// GrepFiles searches files for a regular expression; it skips binary files
// and files larger than 8 MiB. It lists the files first, then reports its
// progress over them (sdk.Progress).
func GrepFiles(ctx context.Context, in GrepInput) (GrepResult, error) {
	res := GrepResult{Matches: []GrepMatch{}}
	re, err := regexp.Compile(in.Pattern)
	if err != nil {
		return res, fmt.Errorf("pattern: %w", err)
	}
	var files []string
	err = walk(ctx, in.Dir, in.Glob, func(_ fs.FS, p string, d fs.DirEntry) error {
		if d.IsDir() || !d.Type().IsRegular() {
			return nil
		}
		if fi, err := d.Info(); err != nil || fi.Size() > maxGrepSize {
			return nil
		}
		files = append(files, p)
		return nil
	})
	if err != nil {
		return res, err
	}
	root, err := os.OpenRoot(sdk.Root(ctx)) // the paths are relative to it
	if err != nil {
		return res, fmt.Errorf("opening the workspace root: %w", err)
	}
	defer root.Close()
	fsys := root.FS()
	for i, p := range files {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		if n := len(files); n <= 100 || (i+1)*100/n != i*100/n { // at most about 100 events
			sdk.Progress(ctx, float64(i+1), float64(n), p)
		}
		if grepFile(fsys, p, re, in.Limit, &res) {
			break
		}
	}
	return res, nil
}

// grepFile appends the matches of file p to res, and reports whether the
// limit was reached.
func grepFile(fsys fs.FS, p string, re *regexp.Regexp, limit int, res *GrepResult) bool {
	data, err := fs.ReadFile(fsys, p)
	if err != nil || bytes.IndexByte(data, 0) >= 0 { // unreadable or binary
		return false
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, len(data)+1)
	for line := 1; sc.Scan(); line++ {
		if !re.Match(sc.Bytes()) {
			continue
		}
		if len(res.Matches) == limit {
			res.Truncated = true
			return true
		}
		res.Matches = append(res.Matches, GrepMatch{Path: p, Line: line, Text: sc.Text()})
	}
	return false
}

// WriteInput holds write_file's parameters.
type WriteInput struct {
	Path    string `json:"path" jsonschema:"description=File to write\\, relative to the workspace root."`
	Content string `json:"content" jsonschema:"description=The file's new content."`
}

// WriteFile writes a file, asking before it overwrites one. It never
// writes into a .git or .config/toolhost directory (see [protected]).
func WriteFile(ctx context.Context, in WriteInput) (string, error) {
	root, name, err := open(ctx, in.Path)
	if err != nil {
		return "", err
	}
	defer root.Close()
	if err := protected(sdk.Root(ctx), name, in.Path); err != nil {
		return "", err
	}
	fi, err := root.Stat(name)
	switch {
	case err == nil && fi.IsDir():
		return "", fmt.Errorf("%s is a directory", in.Path)
	case err == nil:
		ok, err := sdk.Confirm(ctx, "overwrite", fmt.Sprintf("Overwrite %s (%d bytes)?", in.Path, fi.Size()), false)
		if err != nil {
			return "", err
		}
		if !ok {
			return "", fmt.Errorf("%s exists and was not overwritten (the answer to \"overwrite\" was no, or its default when nobody could be asked)", in.Path)
		}
	case !errors.Is(err, fs.ErrNotExist):
		return "", fmt.Errorf("writing %s: %w", in.Path, unwrapPath(err))
	}
	if dir := filepath.Dir(name); dir != "." {
		if err := root.MkdirAll(dir, 0o755); err != nil {
			return "", fmt.Errorf("writing %s: %w", in.Path, unwrapPath(err))
		}
	}
	if err := root.WriteFile(name, []byte(in.Content), 0o644); err != nil {
		return "", fmt.Errorf("writing %s: %w", in.Path, unwrapPath(err))
	}
	return fmt.Sprintf("wrote %s to %s", count(len(in.Content), "byte", "bytes"), in.Path), nil
}

// count writes n with its noun: "1 line", "2 lines".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// FormatWrite shows a write_file call to a user about to approve it: the
// path, the size and the first lines of the content.
func FormatWrite(ctx context.Context, in WriteInput) (string, error) {
	const show = 10
	lines := strings.Split(strings.TrimSuffix(in.Content, "\n"), "\n")
	var b strings.Builder
	fmt.Fprintf(&b, "write %s (%s, %s)\n", in.Path, count(len(in.Content), "byte", "bytes"), count(len(lines), "line", "lines"))
	for i, l := range lines {
		if i == show {
			fmt.Fprintf(&b, "  … %s\n", count(len(lines)-show, "more line", "more lines"))
			break
		}
		b.WriteString("  │ " + l + "\n")
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}

// open opens the workspace root and returns p as a name inside it, or an
// error when p leaves the root: through "..", as an absolute path, or
// through a symbolic link ([resolveIn]). os.Root refuses such a path
// too. The check here words the refusal.
func open(ctx context.Context, p string) (*os.Root, string, error) {
	rootDir := sdk.Root(ctx)
	if p == "" {
		return nil, "", errors.New("path is empty")
	}
	name := p
	if filepath.IsAbs(p) {
		r, err := filepath.Rel(rootDir, p)
		if err != nil {
			return nil, "", fmt.Errorf("path %s is outside the workspace root %s", p, rootDir)
		}
		name = r
	}
	name = filepath.Clean(name)
	if !filepath.IsLocal(name) {
		return nil, "", fmt.Errorf("path %s is outside the workspace root %s", p, rootDir)
	}
	if _, err := resolveIn(rootDir, name); errors.Is(err, errLeaves) {
		return nil, "", fmt.Errorf("path %s is outside the workspace root %s: a symbolic link on it leads out", p, rootDir)
	}
	root, err := os.OpenRoot(rootDir)
	if err != nil {
		return nil, "", fmt.Errorf("opening the workspace root: %w", err)
	}
	return root, name, nil
}

// walk calls fn for each entry under dir whose base name matches glob
// (every entry when glob is ""), in lexical order, skipping .git.
func walk(ctx context.Context, dir, glob string, fn func(fsys fs.FS, p string, d fs.DirEntry) error) error {
	if glob != "" {
		if _, err := path.Match(glob, ""); err != nil {
			return fmt.Errorf("glob %q: %w", glob, err)
		}
	}
	root, name, err := open(ctx, dir)
	if err != nil {
		return err
	}
	defer root.Close()
	fsys := root.FS()
	start := filepath.ToSlash(name)
	if fi, err := fs.Stat(fsys, start); err != nil {
		return fmt.Errorf("%s: %w", dir, unwrapPath(err))
	} else if !fi.IsDir() {
		return fmt.Errorf("%s is not a directory", dir)
	}
	return fs.WalkDir(fsys, start, func(p string, d fs.DirEntry, err error) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err != nil || p == start {
			return nil // unreadable entries are skipped
		}
		if d.IsDir() && d.Name() == ".git" {
			return fs.SkipDir
		}
		if glob != "" {
			if ok, _ := path.Match(glob, d.Name()); !ok {
				return nil
			}
		}
		return fn(fsys, p, d)
	})
}

// unwrapPath drops the operation and name of a *fs.PathError, which repeat
// what the caller's message already says.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if !errors.As(err, &pe) {
		return err
	}
	return pe.Err
}

// protected returns an error when name, a local path in the workspace
// rootDir (as typed: p), is or would be inside a .git or .config/toolhost
// directory, at any depth, after following the symbolic links inside the
// root that os.Root follows too (a link to .config/toolhost, or a dangling
// link into it, is caught). Names are compared without regard to case, as
// case-insensitive file systems do. A workspace's .config/toolhost names
// the commands toolhost runs, and .git's hooks and config run commands
// too: a tool that could write there turns "write a file" into "run any
// command".
//
// # Trade-offs
//
// The check and the write are separate steps: a process racing to swap a
// symbolic link between them wins. The OS sandbox (access.fs) is the
// guard against that; this check makes the refusal clear.
func protected(rootDir, name, p string) error {
	real, err := resolveIn(rootDir, name)
	if err != nil {
		return nil // it leaves the root or loops: open or os.Root refuses it
	}
	parts := strings.Split(filepath.ToSlash(real), "/")
	for i, c := range parts {
		dir := ""
		switch {
		case strings.EqualFold(c, ".git"):
			dir = ".git"
		case strings.EqualFold(c, ".config") && i+1 < len(parts) && strings.EqualFold(parts[i+1], "toolhost"):
			dir = ".config/toolhost"
		default:
			continue
		}
		via := ""
		if filepath.ToSlash(real) != filepath.ToSlash(name) {
			via = fmt.Sprintf(" (it leads to %s through a symbolic link)", filepath.ToSlash(real))
		}
		why := "its files configure the tools toolhost runs"
		if dir == ".git" {
			why = "its hooks and config run commands"
		}
		return fmt.Errorf("refusing to write %s%s: a tool may not write into %s, because %s; a person can edit it", p, via, dir, why)
	}
	return nil
}

// Why [resolveIn] cannot resolve a name. os.Root refuses such a name too.
var (
	errLeaves = errors.New("leaves the root") // through ".." or an absolute link
	errLoop   = errors.New("too many links")  // more than 40 links: a loop
)

// resolveIn returns the path, relative to rootDir, that the local path name
// designates once the symbolic links inside the root are followed as
// os.Root follows them; components that do not exist yet are kept as they
// are. Its error is errLeaves when name leaves the root, errLoop when the
// links loop.
func resolveIn(rootDir, name string) (string, error) {
	var done []string
	todo := strings.Split(filepath.ToSlash(name), "/")
	for links := 0; len(todo) > 0; {
		c := todo[0]
		todo = todo[1:]
		switch c {
		case "", ".":
			continue
		case "..":
			if len(done) == 0 {
				return "", errLeaves
			}
			done = done[:len(done)-1]
			continue
		}
		full := filepath.Join(append([]string{rootDir}, append(done, c)...)...)
		fi, err := os.Lstat(full)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			done = append(done, c) // a directory, a file, or not there yet
			continue
		}
		if links++; links > 40 {
			return "", errLoop
		}
		target, err := os.Readlink(full)
		if err != nil || filepath.IsAbs(target) {
			return "", errLeaves
		}
		todo = append(strings.Split(filepath.ToSlash(target), "/"), todo...)
	}
	return filepath.Join(done...), nil
}
