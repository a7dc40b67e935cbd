// Command toolhost lists, calls and serves local tool binaries. See docs/cli.md.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/toolhost/toolhost/face/cli"
	"github.com/toolhost/toolhost/internal/invoke"
)

func main() {
	_ = invoke.EnableSubreaper() // Linux: a tool's orphaned daemons come back here to be ended and reaped
	cli.OneShotGC()              // serve goes back to the default
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Run(ctx, os.Args, os.Stdout, os.Stderr, os.Stdin, nil)
	stop()
	os.Exit(code)
}
