package figures

import (
	"context"
	"io"
	"path/filepath"
	"testing"

	"github.com/toolhost/toolhost/face/cli"
)

// BenchmarkWarmCallInProcess runs `toolhost call b07_alpha path=a.txt`
// (P3), warm, inside the test process, so that -cpuprofile and
// -memprofile show what toolhost itself does around the tool's process
// (the process start is the --version baseline of BenchmarkWarmCall, the
// tool's own run its bare-exec baseline):
//
//	go test -run='^$' -bench=WarmCallInProcess -cpuprofile=cpu.out ./bench/figures
func BenchmarkWarmCallInProcess(b *testing.B) {
	f := setup(b)
	b.Setenv("XDG_CACHE_HOME", filepath.Join(f.dir, "cache-inprocess"))
	b.Setenv("XDG_CONFIG_HOME", filepath.Join(f.dir, "xdg-config"))
	b.Setenv("XDG_DATA_HOME", filepath.Join(f.dir, "data"))   // where the fixture trusted its workspaces
	b.Setenv("XDG_STATE_HOME", filepath.Join(f.dir, "state")) // the audit log each call appends to, not the user's
	argv := []string{"toolhost", "--root", f.ws200, "call", "b07_alpha", "path=a.txt"}
	if code := cli.Run(context.Background(), argv, io.Discard, io.Discard, nil, nil); code != 0 {
		b.Fatalf("exit %d", code)
	}
	b.ReportAllocs()
	for b.Loop() {
		cli.Run(context.Background(), argv, io.Discard, io.Discard, nil, nil)
	}
}
