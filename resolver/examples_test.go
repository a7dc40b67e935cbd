package resolver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/internal/invoke/sandbox"
	"github.com/toolhost/toolhost/tool"
)

// buildExamples builds the example binaries into dir/bin as `make build`
// does, and returns dir.
func buildExamples(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the examples; skipped with -short")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	cmd := exec.CommandContext(t.Context(), "go", "build", "-o", bin+"/", "./examples/greet", "./examples/fs", "./examples/jpstyle")
	cmd.Dir = ".."
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	script, err := os.ReadFile("../examples/sh/word_count.sh")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bin, "word_count"), script, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// repoCatalog resolves this repository's .config/toolhost against the
// examples built into root/bin.
func repoCatalog(t *testing.T, root string) (*Catalog, string) {
	t.Helper()
	repo, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(&config.LoadOptions{Dir: repo, NoUser: true, Trust: config.TrustAll}) // this repository, which the test runs from
	if err != nil {
		t.Fatal(err)
	}
	c, err := New(t.Context(), cfg, &Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Report().Problems) > 0 {
		t.Fatalf("problems resolving .config/toolhost:\n%v", c.Report().Problems)
	}
	return c, repo
}

// TestRepositoryTools checks the resolved definitions of this repository's
// own tool entries against testdata/repo_tools.json (-update rewrites it).
func TestRepositoryTools(t *testing.T) {
	t.Parallel()
	root := buildExamples(t)
	c, repo := repoCatalog(t, root)
	var tools []toolView
	for _, t := range c.Tools() {
		tools = append(tools, viewOf(t))
	}
	got, err := json.MarshalIndent(struct {
		Tools      []toolView         `json:"tools"`
		Categories []catalog.Category `json:"categories"`
		Identity   catalog.Identity   `json:"identity"`
	}{tools, c.Categories(), c.Identity()}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = bytes.ReplaceAll(got, []byte(repo+string(filepath.Separator)), nil)
	got = append(got, '\n')
	golden(t, "testdata/repo_tools.json", got)

	t.Run("list", func(t *testing.T) {
		data, err := json.MarshalIndent(map[string]any{"tools": c.List()}, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		golden(t, "testdata/repo_list.json", append(data, '\n'))
	})
}

// TestRepositoryToolsRun runs each kind of example: sdk binaries, the sh
// tool, the JP-style binary (unmodified, argv templates, TOML parameters)
// and a plain command.
func TestRepositoryToolsRun(t *testing.T) {
	t.Parallel()
	root := buildExamples(t)
	c, _ := repoCatalog(t, root)
	writeFile(t, filepath.Join(root, "notes.txt"), "alpha\nbeta\n")
	answers := func(m map[string]any) func(context.Context, tool.Question) (any, error) {
		return func(ctx context.Context, q tool.Question) (any, error) { return m[q.ID], nil }
	}
	tests := []struct {
		tool string
		args map[string]any
		opts *catalog.CallOptions
		want tool.Outcome
	}{
		{"greet", map[string]any{"name": "Ada"}, nil, tool.Success("Hello, Ada!")},
		{"reverse", map[string]any{"text": "stressed"}, nil, tool.Success("desserts")},
		{"jp_greet", map[string]any{"name": "Ada"}, nil, tool.Success("Hi Ada.")},
		{"jp_greet", map[string]any{"name": "Ada"}, &catalog.CallOptions{Ask: answers(map[string]any{"style": "formal", "exclaim": true})},
			tool.Success("Good day, Ada!")},
		{"line_count", map[string]any{"path": "notes.txt"}, nil, tool.Success("2 notes.txt")},
		{"word_count", map[string]any{"text": "hello big world"}, nil, tool.Success("lines: 1, words: 3, bytes: 15")},
		{"fs_read_file", map[string]any{"path": "notes.txt"}, nil, tool.Success("alpha\nbeta\n")},
		{"reverse", map[string]any{}, nil, tool.Fail(`invalid arguments for tool "reverse": missing required argument "text"`)},
	}
	for _, tt := range tests {
		got, err := c.Call(t.Context(), tt.tool, tt.args, tt.opts)
		if err != nil {
			t.Errorf("Call(%s): %v", tt.tool, err)
			continue
		}
		if d := diff(tt.want, got); d != "" {
			t.Errorf("Call(%s, %v) mismatch (-want +got):\n%s", tt.tool, tt.args, d)
		}
	}
}

// golden compares got with the file, or rewrites it with -update.
func golden(t *testing.T, file string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if !bytes.Equal(want, got) {
		t.Errorf("%s mismatch (-want +got):\n%s", file, lineDiff(string(want), string(got)))
	}
}

// lineDiff lists the lines that differ, for golden mismatches.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	for i := 0; i < max(len(w), len(g)); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			b.WriteString("-" + wl + "\n+" + gl + "\n")
		}
	}
	return b.String()
}

// toolView is every field of a Tool, for golden files: Tool has no JSON
// form of its own (each face owns its wire shape).
type toolView struct {
	Name             string                     `json:"name"`
	Summary          string                     `json:"summary"`
	Description      string                     `json:"description,omitempty"`
	InputSchema      map[string]any             `json:"inputSchema"`
	Annotations      map[string]any             `json:"annotations,omitempty"`
	Examples         string                     `json:"examples,omitempty"`
	Parameters       map[string]*tool.Parameter `json:"parameters,omitempty"`
	Category         string                     `json:"category,omitempty"`
	Tags             []string                   `json:"tags,omitempty"`
	RequiresApproval bool                       `json:"requires_approval"`
	Timeout          string                     `json:"timeout,omitempty"`
	Enabled          bool                       `json:"enabled"`
	Source           string                     `json:"source"`
	Dynamic          bool                       `json:"dynamic,omitempty"`
	Provenance       map[string]string          `json:"provenance,omitempty"`
}

func viewOf(t *catalog.Tool) toolView {
	v := toolView{Name: t.Name, Summary: t.Summary, Description: t.Description, InputSchema: t.InputSchema, Annotations: t.Annotations,
		Examples: t.Examples, Parameters: t.Parameters, Category: t.Category, Tags: t.Tags, RequiresApproval: t.RequiresApproval,
		Enabled: t.Enabled, Source: t.Source, Dynamic: t.Dynamic, Provenance: t.Provenance}
	if t.Timeout > 0 {
		v.Timeout = t.Timeout.String()
	}
	return v
}

// TestSandboxRepositoryTools: this repository's own entries run under
// [defaults] sandbox = true; its write_file (an sdk binary served from a
// pool of long-lived processes) may write the workspace, its root
// included, but not .config/toolhost, and the refusal names the rule.
func TestSandboxRepositoryTools(t *testing.T) {
	if abi := sandbox.ABI(); abi < 6 {
		t.Skipf("Landlock ABI %d on this kernel; this test needs 6", abi)
	}
	root := buildExamples(t)
	if err := os.MkdirAll(filepath.Join(root, ".config/toolhost"), 0o755); err != nil {
		t.Fatal(err)
	}
	c, _ := repoCatalog(t, root)
	// write_file asks for approval (requires_approval = true): the person says yes.
	approve := &catalog.CallOptions{Approve: func(context.Context, catalog.Approval) (bool, error) { return true, nil }}
	if err := os.MkdirAll(filepath.Join(root, "docs"), 0o755); err != nil {
		t.Fatal(err)
	}
	out, err := c.Call(t.Context(), "write_file", map[string]any{"path": "docs/notes.txt", "content": "hi"}, approve)
	if err != nil || out.IsError() {
		t.Fatalf("write in the workspace: %v %v", err, out)
	}
	// Entries directly in the root are made by the sandbox's supervisor
	// where the kernel takes it (Linux 5.19); else they are refused.
	for _, name := range []string{"notes.txt", "todo.txt", "ideas.txt"} { // the later calls are served by the same long-lived process
		out, err = c.Call(t.Context(), "write_file", map[string]any{"path": name, "content": "hi"}, approve)
		if !sandbox.Supervised() {
			want := `tool "write_file": the sandbox denied create of ` + name
			if err != nil || !strings.HasPrefix(out.Message, want) {
				t.Errorf("create in the root without the supervisor: %v %v\nwant %s…", err, out, want)
			}
			continue
		}
		if want := "wrote 2 bytes to " + name; err != nil || out.IsError() || out.Content != want {
			t.Errorf("create %s in the root: %v %v\nwant %s", name, err, out, want)
		}
		if data, err := os.ReadFile(filepath.Join(root, name)); err != nil || string(data) != "hi" {
			t.Errorf("%s in the root: %q, %v", name, data, err)
		}
	}
	// examples/fs refuses the tool configuration itself, before the
	// sandbox would (internal/invoke/sandbox's TestHostileToolDenied has the
	// sandbox's own denial of it).
	out, err = c.Call(t.Context(), "write_file", map[string]any{"path": ".config/toolhost/x.toml", "content": "[tools.x]"}, approve)
	if err != nil {
		t.Fatal(err)
	}
	want := "refusing to write .config/toolhost/x.toml: a tool may not write into .config/toolhost, because its files configure the tools toolhost runs; a person can edit it"
	if !out.IsError() || out.Message != want {
		t.Errorf("outcome = %v\nwant %s", out, want)
	}
	if _, err := os.Stat(filepath.Join(root, ".config/toolhost/x.toml")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf(".config/toolhost/x.toml written: %v", err)
	}
}

// docBlock returns the first ```toml block after the line that starts
// with marker (a heading, or a paragraph's first words) in the markdown
// file.
func docBlock(t *testing.T, file, marker string) []byte {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(data), "\n"+marker)
	if !ok {
		t.Fatalf("%s has no line starting %q", file, marker)
	}
	_, block, ok := strings.Cut(after, "```toml\n")
	if !ok {
		t.Fatalf("%s: no ```toml block after %q", file, marker)
	}
	block, _, _ = strings.Cut(block, "```\n")
	return []byte(block)
}

// TestConfigDocExample resolves docs/config.md's "A complete example", read
// from the doc itself, against the example binaries: every entry resolves
// without a problem, and the overrides of [tools.search] keep the binary's
// other parameters and its description.
func TestConfigDocExample(t *testing.T) {
	t.Parallel()
	root := buildExamples(t)
	cfg, err := config.Parse("config.md", docBlock(t, "../docs/config.md", "## A complete example\n"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := New(t.Context(), cfg, &Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	if probs := c.Report().Problems; len(probs) > 0 {
		t.Errorf("problems resolving the example:\n%v", probs)
	}
	want := []string{"fs_list_files", "fs_read_file", "fs_write_file", "greet", "jp_style", "search", "wc"}
	if got := c.Names(); !slices.Equal(got, want) {
		t.Errorf("names = %q, want %q", got, want)
	}
	search, ok := c.Tool("search")
	if !ok {
		t.Fatal("no tool search")
	}
	if got := slices.Sorted(maps.Keys(search.Parameters)); !slices.Equal(got, []string{"dir", "glob", "limit", "pattern"}) {
		t.Errorf("search parameters = %q, want the binary's four", got)
	}
	if got := search.Parameters["pattern"].Summary; got != "A Go regular expression." {
		t.Errorf("pattern summary = %q, want the override", got)
	}
	if got := search.Parameters["pattern"].Type; !slices.Equal(got, tool.Types{"string"}) {
		t.Errorf("pattern type = %q, want the binary's string", got)
	}
	if !strings.HasSuffix(search.Description, "\n\nPrefer this over reading whole files.") || strings.HasPrefix(search.Description, "\n") {
		t.Errorf("search description = %q, want the binary's text, then the addition", search.Description)
	}
	for name, args := range map[string]map[string]any{"jp_style": {"text": "stressed"}, "greet": {"name": "Ada"}} {
		out, err := c.Call(t.Context(), name, args, nil)
		if err != nil || out.IsError() {
			t.Errorf("Call(%s) = %v, %v", name, out, err)
		}
	}
}

// TestReadmePlainCommand resolves the README's plain command, read from
// the README itself: no warning (a model reads its summary), and it counts.
func TestReadmePlainCommand(t *testing.T) {
	t.Parallel()
	cfg, err := config.Parse("README.md", docBlock(t, "../README.md", "Commands that do not speak the protocol work too"))
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "notes.txt"), "alpha\nbeta\n")
	c, err := New(t.Context(), cfg, &Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	if probs := c.Report().Problems; len(probs) > 0 {
		t.Errorf("problems resolving the README's line_count: %v", probs)
	}
	out, err := c.Call(t.Context(), "line_count", map[string]any{"path": "notes.txt"}, nil)
	if d := diff(tool.Success("2 notes.txt"), out); err != nil || d != "" {
		t.Errorf("Call(line_count) = %v, %v; mismatch (-want +got):\n%s", out, err, d)
	}
}
