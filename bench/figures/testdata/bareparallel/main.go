// Command bareparallel is P1's bare parallel exec (baseline.BareParallel)
// in a Go process of its own: it asks the 40 binaries of the workspace
// given as its argument for their schema, 4 at a time, and exits.
// BenchmarkColdResolution runs it as a reference beside the in-process
// baseline, so that the share of P1 that is the cost of being a process
// (exec, runtime start, package init) shows in the same run.
package main

import (
	"fmt"
	"os"

	"github.com/toolhost/toolhost/bench/internal/baseline"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: bareparallel WORKSPACE (with bin/five00 … bin/five39)")
		os.Exit(2)
	}
	baseline.BareParallel(os.Args[1])
}
