package mcpserver_test

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/face/mcpserver"
	"github.com/toolhost/toolhost/resolver"
)

// What `toolhost serve` does, in essence. It loads the workspace's
// configuration and serves its tools on stdin and stdout. ServeStdio
// returns when stdin closes or the signal arrives. No tool process is
// left behind.
func ExampleServer_ServeStdio() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	cat, err := resolver.Load(ctx, &config.LoadOptions{Dir: "."}, &resolver.Options{Root: "."})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return
	}
	defer cat.Close()

	logger := slog.New(slog.NewTextHandler(os.Stderr, nil))
	s := mcpserver.New(cat, &mcpserver.Options{Logger: logger})
	if err := s.ServeStdio(ctx); err != nil {
		fmt.Fprintln(os.Stderr, err)
	}
}
