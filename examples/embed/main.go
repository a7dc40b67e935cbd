// Command embed is a host program embedding the resolver: `embed` lists the
// workspace's tools, `embed greet '{"name":"Ada"}'` calls one.
package main

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"

	"github.com/toolhost/toolhost/resolver"
	"github.com/toolhost/toolhost/resolver/config"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "embed:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string) error {
	cfg, err := config.Load(nil) // user file, then the workspace's .config/toolhost/*.toml
	if err != nil {
		return err
	}
	root := "" // commands such as bin/greet are relative to the workspace root
	if dir, ok := config.WorkspaceDir("."); ok {
		root = filepath.Dir(filepath.Dir(dir))
	}
	cat, err := resolver.New(ctx, cfg, &resolver.Options{Root: root, CacheDir: resolver.DefaultCacheDir()})
	if err != nil {
		return err
	}
	for _, p := range cat.Report().Problems { // what did not resolve; the rest is served
		fmt.Fprintln(os.Stderr, p)
	}
	if len(args) == 0 {
		for _, d := range cat.List() {
			fmt.Printf("%-16s %s\n", d.Name, d.Summary)
		}
		return nil
	}
	var input map[string]any
	if len(args) > 1 && json.Unmarshal([]byte(args[1]), &input) != nil {
		return fmt.Errorf("arguments must be a JSON object")
	}
	out, err := cat.Call(ctx, args[0], input, nil) // questions get their defaults
	if err != nil || out.IsError() {
		return cmp.Or(err, fmt.Errorf("%s", out))
	}
	fmt.Println(out)
	return nil
}
