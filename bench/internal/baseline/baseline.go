// Package baseline holds the baselines the figures benchmarks share
// (bench/figures and bench/figures/spawn), so that a figure measured in
// two places is measured against the same thing.
package baseline

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// SchemaRequest is the schema request of the fixtures' binaries, with
// the workspace root to fill in.
const SchemaRequest = `{"protocol":"1","context":{"action":"schema","root":"%s","workspace_id":"w","conversation_id":"c"}}`

// Bound is how many binaries BareParallel runs at once: the resolver's
// default bound (resolver.Options.Concurrency).
const Bound = 4

// BareParallel is P1's baseline: it asks the 40 binaries ws/bin/five00 …
// five39 for their schema by os/exec, Bound at a time, and returns the
// wall time. It panics if one fails: the fixture is broken.
func BareParallel(ws string) time.Duration {
	start := time.Now()
	sem := make(chan struct{}, Bound)
	var wg sync.WaitGroup
	req := fmt.Sprintf(SchemaRequest, ws)
	for i := range 40 {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			cmd := exec.Command(filepath.Join(ws, fmt.Sprintf("bin/five%02d", i)))
			cmd.Stdin = strings.NewReader(req)
			cmd.Dir = ws
			if err := cmd.Run(); err != nil {
				panic(fmt.Sprintf("bin/five%02d: %v", i, err))
			}
		}()
	}
	wg.Wait()
	return time.Since(start)
}
