package cli

import (
	"os"
	"runtime/debug"

	"github.com/toolhost/toolhost/internal/gcfloor"
)

// oneShotGCPercent is the garbage collector's setting for a one-shot
// command: the heap may grow to 5× what is live (to 16 MB before the first
// collection) instead of 2× (4 MB).
const oneShotGCPercent = 400

// OneShotGC fits the garbage collector to the commands that resolve, do
// one thing and exit, unless GOGC is set. That is every command but serve.
// Their heap is a few MB, nearly all of it live until they exit. So
// collecting it is wasted work. A cold `list` of 200 tools made three
// collections, about 5 ms of CPU taken from the tool processes starting
// beside it. The toolhost command calls it once, before [Run]. The serve
// command sets its own (longLivedGC), since it runs long.
func OneShotGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(oneShotGCPercent)
	}
}

// serveHeadroom is how much serve's heap may grow between two
// collections, at least (internal/gcfloor). The runtime's default lets a
// heap of 1 MiB live grow by 3 MiB. Then a call forwarded to an MCP server
// spent a third of its CPU in the collector (docs/performance.md).
const serveHeadroom = 8 << 20

// longLivedGC undoes [OneShotGC], for serve: the heap may grow by
// serveHeadroom between two collections, or by what is live when that is
// more, as the runtime's default. Unless GOGC is set. stop ends that.
func longLivedGC() (stop func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	return gcfloor.Start(serveHeadroom)
}
