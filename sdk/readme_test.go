package sdk_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestREADMERecipe builds the README's SDK example as a tool author does:
// main.go and go.mod exactly as README.md shows them, in a directory
// outside this module, with the replace line pointing to this clone, then
// go mod tidy and go build. The built tool must describe itself.
func TestREADMERecipe(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program outside the module")
	}
	clone, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join(clone, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "\n## Write a tool with the Go SDK\n")
	if !ok {
		t.Fatal(`README.md has no section "## Write a tool with the Go SDK"`)
	}
	mainGo := block(t, section, "```go\n")
	goMod := block(t, section, "```\nmodule ")
	if !strings.Contains(goMod, "=> /path/to/toolhost\n") {
		t.Fatalf("the README's go.mod has no replace line to /path/to/toolhost:\n%s", goMod)
	}
	dir := t.TempDir()
	write(t, filepath.Join(dir, "main.go"), mainGo)
	write(t, filepath.Join(dir, "go.mod"), strings.Replace(goMod, "/path/to/toolhost", clone, 1))
	for _, args := range [][]string{{"mod", "tidy"}, {"build", "-o", "greet", "."}} {
		cmd := exec.CommandContext(t.Context(), "go", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	cmd := exec.CommandContext(t.Context(), filepath.Join(dir, "greet"))
	cmd.Stdin = strings.NewReader(`{"context":{"action":"schema"}}`)
	out, err := cmd.Output()
	if err != nil || !strings.Contains(string(out), `"tools":[{"name":"greet","summary":"Greet someone by name."`) {
		t.Errorf("the built greet answered %q (%v) to schema, want its tool", out, err)
	}
}

// block returns the body of the first fenced block of text that starts
// with fence (its opening line, and for a bare fence the body's start).
func block(t *testing.T, text, fence string) string {
	t.Helper()
	i := strings.Index(text, fence)
	if i < 0 {
		t.Fatalf("README.md's SDK section has no block starting %q", fence)
	}
	start := i + strings.Index(fence, "\n") + 1
	body, _, ok := strings.Cut(text[start:], "```\n")
	if !ok {
		t.Fatalf("README.md's SDK block starting %q does not end", fence)
	}
	return body
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
