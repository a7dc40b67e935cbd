package spawn

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/toolhost/toolhost/bench/internal/baseline"

	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/config/trust"
	"github.com/toolhost/toolhost/face/cli"
	"github.com/toolhost/toolhost/internal/invoke"
	"github.com/toolhost/toolhost/tool"
)

func TestMain(m *testing.M) {
	_ = invoke.EnableSubreaper() // as cmd/toolhost does
	cli.OneShotGC()              // as cmd/toolhost does: a cold list collects no garbage there
	code := m.Run()
	if fix.home != "" {
		os.RemoveAll(fix.home) // build's fixture: 40 binaries, about 160 MB
	}
	os.Exit(code)
}

// fixture is 40 copies of the five sdk binary with 200 [tools.NAME]
// entries, as bench/figures builds it.
type fixture struct{ ws, home string }

var (
	fixOnce sync.Once
	fix     fixture
	fixErr  error
)

func setup(b *testing.B) fixture {
	fixOnce.Do(func() { fix, fixErr = build() })
	if fixErr != nil {
		b.Fatal(fixErr)
	}
	return fix
}

func build() (fixture, error) {
	dir, err := os.MkdirTemp("", "toolhost-spawn-")
	if err != nil {
		return fixture{}, err
	}
	f := fixture{ws: filepath.Join(dir, "ws200"), home: dir}
	five := filepath.Join(dir, "five")
	if msg, err := exec.Command("go", "build", "-o", five, "../testdata/five").CombinedOutput(); err != nil {
		return f, fmt.Errorf("go build: %v\n%s", err, msg)
	}
	data, err := os.ReadFile(five)
	if err != nil {
		return f, err
	}
	if err := os.MkdirAll(filepath.Join(f.ws, "bin"), 0o755); err != nil {
		return f, err
	}
	if err := os.MkdirAll(filepath.Join(f.ws, ".config/toolhost"), 0o755); err != nil {
		return f, err
	}
	var cfg strings.Builder
	for i := range 40 {
		bin := fmt.Sprintf("bin/five%02d", i)
		if err := os.WriteFile(filepath.Join(f.ws, bin), data, 0o755); err != nil {
			return f, err
		}
		for _, t := range []string{"alpha", "bravo", "charlie", "delta", "echo"} {
			fmt.Fprintf(&cfg, "[tools.b%02d_%s]\ncommand = %q\ntool = %q\n\n", i, t, bin, t)
		}
	}
	if err := os.WriteFile(filepath.Join(f.ws, ".config/toolhost/tools.toml"), []byte(cfg.String()), 0o644); err != nil {
		return f, err
	}
	// Trusted, as `toolhost trust` does, in the store of XDG_DATA_HOME.
	ws, err := config.FindWorkspace(f.ws)
	if err != nil {
		return f, err
	}
	_, err = (&trust.Store{Dir: filepath.Join(dir, "data", "toolhost", "trust")}).Trust(ws.Root, ws.Sums())
	return f, err
}

// BenchmarkColdResolutionInProcess is P1 inside the test process:
// `toolhost --no-cache list` over the 200 entries (cli.Run), interleaved
// with the bare parallel exec of the 40 binaries; it reports both and
// their ratio, and -cpuprofile shows where the resolution spends its time.
func BenchmarkColdResolutionInProcess(b *testing.B) {
	f := setup(b)
	b.Setenv("HOME", f.home)
	b.Setenv("XDG_CONFIG_HOME", filepath.Join(f.home, "xdg-config"))
	b.Setenv("XDG_DATA_HOME", filepath.Join(f.home, "data"))
	argv := []string{"toolhost", "--root", f.ws, "--no-cache", "list"}
	list := func() time.Duration {
		start := time.Now()
		if code := cli.Run(context.Background(), argv, io.Discard, io.Discard, nil, nil); code != 0 {
			b.Fatalf("exit %d", code)
		}
		return time.Since(start)
	}
	list()
	baseline.BareParallel(f.ws)
	var bare, ours, bareCPU, oursCPU, bareKids, oursKids time.Duration
	b.ReportAllocs()
	for b.Loop() {
		c0, k0 := cpu(), childCPU()
		bare += baseline.BareParallel(f.ws)
		c1, k1 := cpu(), childCPU()
		ours += list()
		bareCPU, oursCPU = bareCPU+c1-c0, oursCPU+cpu()-c1
		bareKids, oursKids = bareKids+k1-k0, oursKids+childCPU()-k1
	}
	b.ReportMetric(float64(bareKids.Microseconds())/float64(b.N)/1000, "bare-kids-cpu-ms")
	b.ReportMetric(float64(oursKids.Microseconds())/float64(b.N)/1000, "list-kids-cpu-ms")
	b.ReportMetric(float64(bareCPU.Microseconds())/float64(b.N)/1000, "bare-cpu-ms")
	b.ReportMetric(float64(oursCPU.Microseconds())/float64(b.N)/1000, "list-cpu-ms")
	b.ReportMetric(float64(bare.Microseconds())/float64(b.N)/1000, "bare-ms")
	b.ReportMetric(float64(ours.Microseconds())/float64(b.N)/1000, "list-ms")
	b.ReportMetric(float64(ours)/float64(bare), "list/bare")
}

// BenchmarkRunSchema compares invoke.Run of one five binary's schema
// request with a bare os/exec of the same binary and request,
// interleaved; it reports both and their ratio.
func BenchmarkRunSchema(b *testing.B) {
	f := setup(b)
	path := filepath.Join(f.ws, "bin/five07")
	spec := &invoke.Spec{Command: []string{"bin/five07"}}
	req := &tool.Request{Protocol: tool.Version, Context: tool.Context{Action: tool.ActionSchema, Root: f.ws, WorkspaceID: "w", ConversationID: "c"}}
	text := fmt.Sprintf(baseline.SchemaRequest, f.ws)
	runBare := func() time.Duration {
		start := time.Now()
		cmd := exec.Command(path)
		cmd.Stdin, cmd.Dir = strings.NewReader(text), f.ws
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
		return time.Since(start)
	}
	runOurs := func() time.Duration {
		start := time.Now()
		if _, err := invoke.Run(context.Background(), spec, req); err != nil {
			b.Fatal(err)
		}
		return time.Since(start)
	}
	var bare, ours, bareCPU, oursCPU time.Duration
	b.ReportAllocs()
	for b.Loop() {
		c0 := cpu()
		bare += runBare()
		c1 := cpu()
		ours += runOurs()
		bareCPU, oursCPU = bareCPU+c1-c0, oursCPU+cpu()-c1
	}
	b.ReportMetric(float64(bareCPU.Microseconds())/float64(b.N)/1000, "bare-cpu-ms")
	b.ReportMetric(float64(oursCPU.Microseconds())/float64(b.N)/1000, "run-cpu-ms")
	b.ReportMetric(float64(bare.Microseconds())/float64(b.N)/1000, "bare-ms")
	b.ReportMetric(float64(ours.Microseconds())/float64(b.N)/1000, "run-ms")
	b.ReportMetric(float64(ours)/float64(bare), "run/bare")
}

// cpu returns the CPU time (user and system) this process has used so
// far, in all its threads: the host's share of a spawn, without the
// child's.
func cpu() time.Duration { return rusage(syscall.RUSAGE_SELF) }

// childCPU returns the CPU time used so far by the children this process
// waited for.
func childCPU() time.Duration { return rusage(syscall.RUSAGE_CHILDREN) }

func rusage(who int) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(who, &ru); err != nil {
		panic(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
