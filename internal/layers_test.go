package internal_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The layers of the house (docs/architecture.md), from the ground up. A
// package may import the packages of its own room and of any lower floor,
// never one on its floor or above: tool never imports the spawner, the
// spawner never imports the catalog, and no face imports a sibling face.
// A package of the module that no room holds fails TestLayers: place it.
var rooms = []struct {
	floor int
	room  string   // the room's name in the messages
	paths []string // the packages the room holds: a path, or "dir/..." for dir and everything below it
}{
	{0, "ground helpers", []string{"internal/..."}},
	{1, "protocol", []string{"tool"}},
	{1, "telemetry", []string{"telemetry/...", "internal/telemetry/..."}}, // OpenTelemetry spans and metrics; imports no package of the module
	{2, "spawner", []string{"internal/invoke/..."}},
	{2, "configuration", []string{"config/...", "internal/config/..."}},
	{2, "tool search", []string{"internal/toolsearch/..."}}, // ranks tool definitions; imports the ground only
	{2, "author SDK", []string{"sdk/..."}},
	{2, "audit log", []string{"audit"}}, // the standard library and the ground only: the catalog and the faces write and read it
	{2, "rate limits", []string{"ratelimit"}},
	{3, "catalog", []string{"catalog/..."}},
	{3, "sign-in", []string{"internal/oauth/..."}},                           // OAuth for HTTP servers and remotes; stores tokens with the keyring of secrets                                  // the Catalog and its call path; the tool, identity, errors and the Source contract
	{4, "sources' shared helpers", []string{"internal/source/internal/..."}}, // what two sources share (the effective policy describe shows)
	{5, "local binaries", []string{"internal/source/binary/..."}},            // the sources stand beside each other: none imports another
	{5, "an MCP server", []string{"internal/source/mcp/..."}},
	{5, "a remote catalog", []string{"internal/source/remote/..."}},
	{6, "configured servers", []string{"internal/source/servers/..."}}, // the MCP servers and remotes a configuration names, made of the two above
	{7, "resolver", []string{"resolver/..."}},                          // the wiring: a catalog made from a configuration, with its sources
	{8, "faces' shared helpers", []string{"face/internal/..."}},
	{9, "MCP face", []string{"face/mcpserver/...", "internal/face/mcpserver/..."}},
	{9, "HTTP face", []string{"face/httpserver/..."}},
	{10, "CLI face", []string{"face/cli/..."}}, // its serve command starts the MCP and HTTP faces
	{11, "programs", []string{"cmd/...", "examples/...", "bench/...", "interop/..."}},
}

const module = "github.com/toolhost/toolhost"

// roomOf returns the index in rooms of the room holding pkg (a path
// relative to the module), or -1. The longest path that holds pkg wins,
// so internal/invoke/... is the spawner, not a ground helper.
func roomOf(pkg string) int {
	best, bestLen := -1, -1
	for i, r := range rooms {
		for _, p := range r.paths {
			dir, tree := strings.CutSuffix(p, "/...")
			if (pkg == dir || (tree && strings.HasPrefix(pkg, dir+"/"))) && len(dir) > bestLen {
				best, bestLen = i, len(dir)
			}
		}
	}
	return best
}

// listed is one package as `go list -deps -json` prints it: its own
// imports, and every package it depends on.
type listed struct {
	ImportPath string
	Imports    []string
	Deps       []string
	Module     *struct{ Path string }
}

// modulePackages lists the module's packages (test files left out), with
// the module's packages each imports and depends on, relative to the
// module.
func modulePackages(t *testing.T) map[string]listed {
	t.Helper()
	cmd := exec.Command("go", "list", "-deps", "-json", "./...")
	cmd.Dir = ".."
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.Bytes())
	}
	pkgs := map[string]listed{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var p listed
		if err := dec.Decode(&p); err != nil {
			t.Fatalf("go list output: %v", err)
		}
		if p.Module == nil || p.Module.Path != module {
			continue
		}
		p.ImportPath = relative(p.ImportPath)
		p.Imports, p.Deps = inModule(p.Imports), inModule(p.Deps)
		pkgs[p.ImportPath] = p
	}
	if len(pkgs) < 10 {
		t.Fatalf("go list found %d packages of %s, want the whole module", len(pkgs), module)
	}
	return pkgs
}

func relative(path string) string { return strings.TrimPrefix(strings.TrimPrefix(path, module), "/") }

func inModule(paths []string) []string {
	var out []string
	for _, p := range paths {
		if p == module || strings.HasPrefix(p, module+"/") {
			out = append(out, relative(p))
		}
	}
	return out
}

// TestLayers: every package of the module stands in a room of the table
// above, and imports only its own room and lower floors.
func TestLayers(t *testing.T) {
	for _, p := range modulePackages(t) {
		from := roomOf(p.ImportPath)
		if from < 0 {
			t.Errorf("package %s is in no room of the layers table (internal/layers_test.go): add it to the room it belongs to, and to docs/architecture.md", p.ImportPath)
			continue
		}
		for _, imp := range p.Imports {
			to := roomOf(imp)
			if to < 0 || to == from {
				continue // a package in no room is reported as itself
			}
			if rooms[to].floor >= rooms[from].floor {
				t.Errorf("%s (%s, floor %d) imports %s (%s, floor %d): a package imports only its own room and lower floors (docs/architecture.md)",
					p.ImportPath, rooms[from].room, rooms[from].floor, imp, rooms[to].room, rooms[to].floor)
			}
		}
	}
}

// TestGroundStaysDown: neither the protocol nor the spawner depends,
// directly or through another package, on the catalog, a source or a
// face; neither the catalog nor a source depends on anything above it
// (a source on resolver or a face, the catalog on a source); the MCP and
// HTTP faces depend on the catalog, never on resolver or a source; and no
// face depends on a sibling face.
func TestGroundStaysDown(t *testing.T) {
	pkgs := modulePackages(t)
	above := func(dep string) bool {
		r := roomOf(dep)
		return r >= 0 && rooms[r].floor >= 3
	}
	for path, p := range pkgs {
		if r := roomOf(path); r < 0 || (rooms[r].room != "protocol" && rooms[r].room != "spawner") {
			continue
		}
		for _, d := range p.Deps {
			if above(d) {
				t.Errorf("%s depends on %s: the protocol and the spawner stand below the catalog, its sources and the faces", path, d)
			}
		}
	}
	// The catalog knows sources only through its Source interface; a
	// source knows neither the resolver that wires it nor a face.
	for path, p := range pkgs {
		r := roomOf(path)
		if r < 0 || (rooms[r].room != "catalog" && !strings.HasPrefix(path, "internal/source/")) {
			continue
		}
		for _, d := range p.Deps {
			if dr := roomOf(d); dr >= 0 && rooms[dr].floor > rooms[r].floor {
				t.Errorf("%s (%s) depends on %s (%s): the catalog knows sources only through catalog.Source, and a source imports neither resolver nor a face", path, rooms[r].room, d, rooms[dr].room)
			}
		}
	}
	// The MCP and HTTP faces serve any catalog: they know the catalog,
	// never the wiring nor a source (the CLI, which makes the catalog
	// from a configuration, imports resolver).
	for _, f := range []string{"face/mcpserver", "face/httpserver", "face/internal/callresult"} {
		p, ok := pkgs[f]
		if !ok {
			t.Fatalf("package %s not found by go list", f)
		}
		for _, d := range p.Deps {
			if d == "resolver" || strings.HasPrefix(d, "resolver/") || strings.HasPrefix(d, "internal/source/") {
				t.Errorf("%s depends on %s: the MCP and HTTP faces serve a catalog.Catalog (or anything with its methods), never the wiring or a source", f, d)
			}
		}
	}
	faces := []string{"face/mcpserver", "face/httpserver"}
	for _, f := range faces {
		p, ok := pkgs[f]
		if !ok {
			t.Fatalf("face %s not found by go list", f)
		}
		for _, d := range p.Deps {
			for _, g := range faces {
				if g != f && (d == g || strings.HasPrefix(d, g+"/")) {
					t.Errorf("face %s depends on face %s: faces are siblings; what both need goes below them (face/internal)", f, d)
				}
			}
		}
	}
}

// TestSizes: no package holds more than a quarter of the module's
// non-test Go lines. Files are cut by concept, not by a line count.
func TestSizes(t *testing.T) {
	perDir := map[string]int{}
	total := 0
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if path != ".." && (strings.HasPrefix(name, ".") || name == "testdata" || name == "bin" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		n, err := countLines(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel("..", path)
		if !strings.HasSuffix(path, "_test.go") {
			perDir[filepath.Dir(rel)] += n
			total += n
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	dirs := make([]string, 0, len(perDir))
	for d := range perDir {
		dirs = append(dirs, d)
	}
	slices.SortFunc(dirs, func(a, b string) int { return perDir[b] - perDir[a] })
	biggest := dirs[0]
	if perDir[biggest]*4 > total {
		t.Errorf("package %s holds %d of the module's %d non-test Go lines (%.1f%%), more than a quarter: split it by concern",
			biggest, perDir[biggest], total, 100*float64(perDir[biggest])/float64(total))
	}
	var b strings.Builder
	for _, d := range dirs[:min(5, len(dirs))] {
		fmt.Fprintf(&b, " %s %d;", d, perDir[d])
	}
	t.Logf("non-test Go lines: %d; the biggest packages:%s", total, b.String())
}

func countLines(path string) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	s.Buffer(make([]byte, 1<<20), 1<<20)
	n := 0
	for s.Scan() {
		n++
	}
	return n, s.Err()
}
