package cli

import (
	"os"
	"runtime/debug"
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
// command goes back to the default, since it runs long.
func OneShotGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(oneShotGCPercent)
	}
}

// longLivedGC undoes [OneShotGC], for serve.
func longLivedGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(100)
	}
}
