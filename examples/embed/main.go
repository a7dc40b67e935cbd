// Command embed is a host program embedding the resolver: `embed` lists the
// workspace's tools, `embed greet '{"name":"Ada"}'` calls one, and
// `embed serve 127.0.0.1:8080` mounts the tool browser at /explorer/ of the
// host's own web server.
package main

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/face/httpserver"
	"github.com/toolhost/toolhost/resolver"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "embed:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	root := "" // commands such as bin/greet are relative to the workspace root
	if dir, ok := config.WorkspaceDir("."); ok {
		root = filepath.Dir(filepath.Dir(dir))
	}
	// The user file, then the workspace's .config/toolhost/*.toml once a
	// person trusted it (toolhost trust): the default LoadOptions.Trust.
	cat, err := resolver.Load(ctx, nil, &resolver.Options{Root: root, CacheDir: resolver.DefaultCacheDir()})
	if err != nil {
		return err // no configuration could be read at all
	}
	defer cat.Close()                         // ends the long-lived tool processes and the MCP servers it started
	for _, p := range cat.Report().Problems { // the files and entries left out; the rest is served
		fmt.Fprintln(stderr, p)
		if p.Fix != "" {
			fmt.Fprintln(stderr, "  fix:", p.Fix)
		}
	}
	if len(args) == 0 {
		for _, d := range cat.List() {
			fmt.Fprintf(stdout, "%-16s %s\n", d.Name, d.Summary)
		}
		return nil
	}
	if args[0] == "serve" && len(args) == 2 {
		ln, err := httpserver.Listen(args[1])
		if err != nil {
			return err
		}
		fmt.Fprintf(stderr, "the tool browser is at http://%s/explorer/\n", ln.Addr())
		return httpserver.Serve(ctx, ln, mux(cat))
	}
	var input map[string]any
	if len(args) > 1 && json.Unmarshal([]byte(args[1]), &input) != nil {
		return fmt.Errorf("arguments must be a JSON object")
	}
	var opts catalog.CallOptions // questions get their defaults
	if fi, err := os.Stdin.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
		opts.Approve = approve // else a tool with run = "ask" is refused: nobody to ask
	}
	out, err := cat.Call(ctx, args[0], input, &opts)
	if err != nil || out.IsError() {
		return cmp.Or(err, fmt.Errorf("%s", out))
	}
	fmt.Fprintln(stdout, out)
	return nil
}

// approve asks the person at the terminal to approve a call of a tool with
// run = "ask", shown as the tool renders it. A host with its own UI asks
// there; whatever it does, only a person answers, never the model.
func approve(ctx context.Context, a catalog.Approval) (bool, error) {
	fmt.Fprintf(os.Stderr, "%s\nRun %s? [y/N] ", a.Rendered, a.Tool)
	line, _ := bufio.NewReader(os.Stdin).ReadString('\n')
	return strings.EqualFold(strings.TrimSpace(line), "y"), nil
}

// mux is the host's web server: its own pages, and the tool browser (the
// page and its API, over the catalog) mounted at /explorer/. The page's
// links are relative, so any prefix works; on a Static or Func provider,
// give Options.Call to run tools.
func mux(cat *resolver.Catalog) http.Handler {
	m := http.NewServeMux()
	m.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintln(w, "the host's home page; the tools are at /explorer/")
	})
	browser := httpserver.NewHandler(httpserver.FromCatalog(cat), &httpserver.Options{
		Title:        "My app's tools",
		AllowExecute: true,                     // loopback only here; elsewhere set Token too
		Token:        os.Getenv("EMBED_TOKEN"), // "" means no token
	})
	m.Handle("/explorer/", http.StripPrefix("/explorer", browser))
	return m
}
