package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/config/trust"
)

// Workspace trust: a workspace's .config/toolhost/*.toml runs nothing until
// a person runs `toolhost trust` (docs/security.md, "Workspace trust").
// The user's own file and --config files are trusted: a person wrote or
// typed them.

// loadOptions are the configuration layers of the global flags for the
// workspace at root, checked against the user's trust store.
func (a *app) loadOptions(c *cli.Context, root string) *config.LoadOptions {
	return &config.LoadOptions{Dir: root, Files: c.StringSlice("config"), Trust: trust.Default()}
}

// splitUntrusted takes the untrusted workspace out of problems.
func splitUntrusted(problems config.Problems) (config.Problems, *config.Error) {
	var untrusted *config.Error
	rest := problems[:0:0]
	for _, p := range problems {
		if untrusted == nil && errors.Is(p, trust.ErrUntrusted) {
			untrusted = p
			continue
		}
		rest = append(rest, p)
	}
	if len(rest) == 0 {
		rest = nil
	}
	return rest, untrusted
}

// noteUntrusted writes the one line that says the workspace's tools are
// not served, which files are why, and the fix, such as
//
//	toolhost: workspace configuration not trusted, its tools are not served: new .config/toolhost/tools.toml; review it, then run: toolhost trust
func (a *app) noteUntrusted() {
	if a.untrusted != nil {
		fmt.Fprintf(a.stderr, "toolhost: %s\n", a.errText(a.untrustedText())) // it names the workspace's files
	}
}

// untrustedText is noteUntrusted's line without the "toolhost: ".
func (a *app) untrustedText() string {
	e := a.untrusted
	dir := e.Pos.File
	var te *trust.Error
	if !errors.As(e, &te) {
		return fmt.Sprintf("workspace configuration %s not used: %s", relPath(dir), e.Msg)
	}
	fix := "toolhost trust"
	if !within(te.Root) {
		fix += " " + config.QuoteWord(te.Root)
	}
	if te.Cause != nil { // the cause says what to do
		return fmt.Sprintf("workspace configuration not trusted, its tools are not served: %v", te.Cause)
	}
	var parts []string
	n := 0
	for _, d := range []struct {
		what  string
		files []string
	}{{"untrusted", te.Untrusted}, {"new", te.New}, {"changed", te.Changed}, {"removed", te.Removed}} {
		if len(d.files) == 0 {
			continue
		}
		paths := make([]string, len(d.files))
		for i, f := range d.files {
			paths[i] = relPath(filepath.Join(dir, f))
		}
		n += len(paths)
		parts = append(parts, d.what+" "+strings.Join(paths, ", "))
	}
	return fmt.Sprintf("workspace configuration not trusted, its tools are not served: %s; review %s, then run: %s",
		strings.Join(parts, "; "), plural(n, "it", "them"), fix)
}

// within reports whether the working directory is dir or below it.
func within(dir string) bool {
	wd, err := os.Getwd()
	if err != nil {
		return false
	}
	rel, err := filepath.Rel(dir, wd)
	return err == nil && filepath.IsLocal(rel)
}
