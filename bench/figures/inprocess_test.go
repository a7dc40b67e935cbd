package figures

import (
	"context"
	"io"
	"path/filepath"
	"testing"

	"github.com/toolhost/toolhost/face/cli"
)

// BenchmarkWarmList1000InProcess runs `toolhost list` of the 1000-tool
// binary, warm, inside the test process, so that -cpuprofile and
// -memprofile show where a warm start spends its time (the process start
// itself is the --version baseline of BenchmarkWarmList1000):
//
//	go test -run='^$' -bench=WarmList1000InProcess -cpuprofile=cpu.out -memprofile=mem.out ./bench/figures
func BenchmarkWarmList1000InProcess(b *testing.B) {
	f := setup(b)
	b.Setenv("XDG_CACHE_HOME", filepath.Join(f.dir, "cache-inprocess"))
	b.Setenv("XDG_CONFIG_HOME", filepath.Join(f.dir, "xdg-config"))
	b.Setenv("XDG_DATA_HOME", filepath.Join(f.dir, "data")) // where the fixture trusted its workspaces
	for _, args := range [][]string{{"list"}, {"list", "--json"}} {
		b.Run(args[len(args)-1], func(b *testing.B) {
			argv := append([]string{"toolhost", "--root", f.ws1000}, args...)
			if code := cli.Run(context.Background(), argv, io.Discard, io.Discard, nil, nil); code != 0 {
				b.Fatalf("exit %d", code)
			}
			b.ReportAllocs()
			for b.Loop() {
				cli.Run(context.Background(), argv, io.Discard, io.Discard, nil, nil)
			}
		})
	}
}

// BenchmarkWarmList200InProcess runs `toolhost list` of the 200 entries
// over 40 binaries (P2), warm, inside the test process, for its profile.
func BenchmarkWarmList200InProcess(b *testing.B) {
	f := setup(b)
	b.Setenv("XDG_CACHE_HOME", filepath.Join(f.dir, "cache-inprocess"))
	b.Setenv("XDG_CONFIG_HOME", filepath.Join(f.dir, "xdg-config"))
	b.Setenv("XDG_DATA_HOME", filepath.Join(f.dir, "data")) // where the fixture trusted its workspaces
	argv := []string{"toolhost", "--root", f.ws200, "list"}
	if code := cli.Run(context.Background(), argv, io.Discard, io.Discard, nil, nil); code != 0 {
		b.Fatalf("exit %d", code)
	}
	b.ReportAllocs()
	for b.Loop() {
		cli.Run(context.Background(), argv, io.Discard, io.Discard, nil, nil)
	}
}
