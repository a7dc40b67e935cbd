package figures

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/config/trust"
	"github.com/toolhost/toolhost/face/mcpserver"
	"github.com/toolhost/toolhost/resolver"
	"github.com/toolhost/toolhost/tool"
)

// BenchmarkMCPServerCall is a call of a stdio MCP server's tool (testdata/
// gosdk, the official Go SDK's server) through toolhost, against the
// go-sdk client calling that server directly ("direct"), each over one
// connection kept open: through the catalog ([resolver.Catalog.Call]:
// lookup, validation, the source's forwarding; "after") and through the
// catalog and the MCP face, over the go-sdk's in-memory transport ("face";
// "face-local" is the face calling an in-process tool of the same
// catalog, so "(face-local)/direct" is what the gateway adds to the face's
// own cost).
// "serve" is the figure of docs/performance.md over the same transport as "direct": the
// go-sdk client calling the server's tool through a real `toolhost serve`
// subprocess over stdio (client → serve → server, two MCP hops, each over
// pipes), the server configured as [mcp_servers.g] in serve's workspace.
// The server runs under the sandbox, as a configured stdio server does by
// default. Goal ≤ 1.2×.
//
// "gateway" is the same two hops through the go-sdk's smallest gateway
// (testdata/gateway), the floor of any gateway over stdio: "serve/gateway"
// is what toolhost's serve adds to it, and "serve-cpu/gateway-cpu" the
// same in CPU time of the two processes per call (/proc, summed over
// their threads), which the shared machine's noise moves less than the
// wall time. With TOOLHOST_BEFORE, that binary's serve is measured too,
// interleaved ("serve-before", "serve-cpu-before").
//
// "gateway-floor" is the gateway with serve's GC setting (its -gcfloor):
// "serve/gateway-floor" is what serve adds to two hops when both let
// their heap grow alike between collections.
// "serve-rss-MB", "gateway-rss-MB" (and the others') are each process's
// resident set after the run, in MB: what a GC setting trades.
func BenchmarkMCPServerCall(b *testing.B) {
	f := setup(b)
	ctx := context.Background()
	args := map[string]any{"path": "a.txt"}

	direct := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "v0"}, nil)
	cs, err := direct.Connect(ctx, &mcp.CommandTransport{Command: exec.Command(f.gosdk)}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()

	ws, err := serveWorkspace(f)
	if err != nil {
		b.Fatal(err)
	}
	startServe := func(v *variant) (*mcp.ClientSession, *exec.Cmd, error) {
		cmd := exec.Command(v.bin, "serve")
		cmd.Dir, cmd.Env = ws, v.env
		ss, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "v0"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
		if err != nil {
			return nil, nil, err
		}
		b.Cleanup(func() { ss.Close() })
		res, err := ss.CallTool(ctx, &mcp.CallToolParams{Name: "b07_alpha", Arguments: args})
		if err == nil && res.IsError {
			err = fmt.Errorf("%s serve: b07_alpha: %v", v.name, res.Content)
		}
		return ss, cmd, err
	}
	serve, serveCmd, err := startServe(f.variants[len(f.variants)-1]) // "after": the servers are this tree's feature
	if err != nil {
		b.Fatal(err)
	}
	gwCmd := exec.Command(f.gateway, f.gosdk)
	gw, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "v0"}, nil).Connect(ctx, &mcp.CommandTransport{Command: gwCmd}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer gw.Close()
	gwfCmd := exec.Command(f.gateway, "-gcfloor", f.gosdk)
	gwf, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "v0"}, nil).Connect(ctx, &mcp.CommandTransport{Command: gwfCmd}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer gwf.Close()

	root := b.TempDir()
	cfg, err := config.Parse(filepath.Join(root, "tools.toml"), []byte(fmt.Sprintf(
		"[mcp_servers.g]\ncommand = %q\n\n[toolsets.g]\nsource = \"mcp.g\"\n", f.gosdk)))
	if err != nil {
		b.Fatal(err)
	}
	cat, err := resolver.New(ctx, cfg, &resolver.Options{Root: root, CacheDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	defer cat.Close()
	if p := cat.Report().Problems; len(p) > 0 {
		b.Fatal(p)
	}
	// The same tool in-process (a registered handler), for what the face
	// costs by itself.
	if err := cat.Register(catalog.Definition{Name: "local_alpha", Summary: "In-process alpha.",
		InputSchema: map[string]any{"type": "object", "properties": map[string]any{"path": map[string]any{"type": "string"}}}},
		func(_ context.Context, args map[string]any) (tool.Outcome, error) {
			return tool.Success(strings.ToUpper(args["path"].(string))), nil
		}); err != nil {
		b.Fatal(err)
	}
	ms := mcpserver.New(cat, nil)
	st, ct := mcp.NewInMemoryTransports()
	sctx, stop := context.WithCancel(ctx)
	defer stop()
	go func() { _ = ms.Run(sctx, st) }()
	face, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "v0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer face.Close()

	check := func(res *mcp.CallToolResult, err error) {
		if err != nil {
			b.Fatal(err)
		}
		if res.IsError || len(res.Content) != 1 || res.Content[0].(*mcp.TextContent).Text != "A.TXT" {
			b.Fatalf("result %+v", res)
		}
	}
	const calls = 20 // per sample: one call is tens of microseconds
	// The CPU time of the serve and gateway processes over the run, per
	// call through them: what each spends on a call, with less noise than
	// the wall time of two hops on a shared machine.
	var serveCalls, gwCalls, gwfCalls, beforeCalls int
	serveCPU, gwCPU, gwfCPU := procCPU(b, serveCmd.Process.Pid), procCPU(b, gwCmd.Process.Pid), procCPU(b, gwfCmd.Process.Pid)
	names := []string{"direct", "after", "face", "face-local", "serve", "gateway", "gateway-floor"}
	fns := []func() time.Duration{
		func() time.Duration {
			start := time.Now()
			for range calls {
				check(cs.CallTool(ctx, &mcp.CallToolParams{Name: "b07_alpha", Arguments: args}))
			}
			return time.Since(start) / calls
		},
		func() time.Duration {
			start := time.Now()
			for range calls {
				out, err := cat.Call(ctx, "b07_alpha", args, nil)
				if err != nil || out.Content != "A.TXT" {
					b.Fatalf("outcome %+v, %v", out, err)
				}
			}
			return time.Since(start) / calls
		},
		func() time.Duration {
			start := time.Now()
			for range calls {
				check(face.CallTool(ctx, &mcp.CallToolParams{Name: "b07_alpha", Arguments: args}))
			}
			return time.Since(start) / calls
		},
		func() time.Duration {
			start := time.Now()
			for range calls {
				check(face.CallTool(ctx, &mcp.CallToolParams{Name: "local_alpha", Arguments: args}))
			}
			return time.Since(start) / calls
		},
		func() time.Duration {
			start := time.Now()
			for range calls {
				check(serve.CallTool(ctx, &mcp.CallToolParams{Name: "b07_alpha", Arguments: args}))
			}
			serveCalls += calls
			return time.Since(start) / calls
		},
		func() time.Duration {
			start := time.Now()
			for range calls {
				check(gw.CallTool(ctx, &mcp.CallToolParams{Name: "b07_alpha", Arguments: args}))
			}
			gwCalls += calls
			return time.Since(start) / calls
		},
		func() time.Duration {
			start := time.Now()
			for range calls {
				check(gwf.CallTool(ctx, &mcp.CallToolParams{Name: "b07_alpha", Arguments: args}))
			}
			gwfCalls += calls
			return time.Since(start) / calls
		},
	}
	// With TOOLHOST_BEFORE, the same call through that binary's serve,
	// interleaved with the others: this tree against an earlier one.
	var before *mcp.ClientSession
	var beforeCmd *exec.Cmd
	var beforeCPU time.Duration
	if len(f.variants) > 1 {
		ss, cmd, err := startServe(f.variants[0])
		if err != nil {
			b.Logf("TOOLHOST_BEFORE's serve cannot call the server's tool (a binary from before [mcp_servers]?), not measured: %v", err)
		} else {
			before, beforeCmd = ss, cmd
		}
	}
	if beforeCmd != nil {
		beforeCPU = procCPU(b, beforeCmd.Process.Pid)
		names = append(names, "serve-before")
		fns = append(fns, func() time.Duration {
			start := time.Now()
			for range calls {
				check(before.CallTool(ctx, &mcp.CallToolParams{Name: "b07_alpha", Arguments: args}))
			}
			beforeCalls += calls
			return time.Since(start) / calls
		})
	}
	m := measure(b, names, fns)
	serveCPU, gwCPU = procCPU(b, serveCmd.Process.Pid)-serveCPU, procCPU(b, gwCmd.Process.Pid)-gwCPU
	gwfCPU = procCPU(b, gwfCmd.Process.Pid) - gwfCPU
	perCall := func(d time.Duration, n int) float64 { return float64(d) / float64(n) / float64(time.Millisecond) }
	serveMS, gwMS, gwfMS := perCall(serveCPU, serveCalls), perCall(gwCPU, gwCalls), perCall(gwfCPU, gwfCalls)
	b.ReportMetric(serveMS, "serve-cpu-ms")
	b.ReportMetric(gwMS, "gateway-cpu-ms")
	b.ReportMetric(serveMS/gwMS, "serve-cpu/gateway-cpu")
	b.ReportMetric(gwfMS, "gateway-floor-cpu-ms")
	b.ReportMetric(serveMS/gwfMS, "serve-cpu/gateway-floor-cpu")
	if beforeCmd != nil {
		beforeMS := perCall(procCPU(b, beforeCmd.Process.Pid)-beforeCPU, beforeCalls)
		b.ReportMetric(beforeMS, "serve-cpu-before-ms")
		b.ReportMetric(beforeMS/gwMS, "serve-cpu-before/gateway-cpu")
		b.ReportMetric(serveMS/beforeMS, "serve-cpu/serve-cpu-before")
		b.ReportMetric(float64(m["serve-before"])/float64(m["direct"]), "serve-before/direct")
		b.ReportMetric(float64(m["serve-before"])/float64(m["gateway"]), "serve-before/gateway")
		b.ReportMetric(float64(m["serve"])/float64(m["serve-before"]), "serve/serve-before")
	}
	rss := func(pid int) float64 {
		status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
		if err != nil {
			b.Fatalf("the resident set of process %d: %v", pid, err)
		}
		return statusMB(status, "VmRSS")
	}
	b.ReportMetric(rss(serveCmd.Process.Pid), "serve-rss-MB")
	b.ReportMetric(rss(gwCmd.Process.Pid), "gateway-rss-MB")
	b.ReportMetric(rss(gwfCmd.Process.Pid), "gateway-floor-rss-MB")
	if beforeCmd != nil {
		b.ReportMetric(rss(beforeCmd.Process.Pid), "serve-before-rss-MB")
	}
	b.ReportMetric(float64(m["serve"])/float64(m["direct"]), "serve/direct")
	// Two MCP hops without toolhost: the floor of any gateway over stdio.
	b.ReportMetric(float64(m["gateway"])/float64(m["direct"]), "gateway/direct")
	b.ReportMetric(float64(m["serve"])/float64(m["gateway"]), "serve/gateway")
	b.ReportMetric(float64(m["serve"])/float64(m["gateway-floor"]), "serve/gateway-floor")
	b.ReportMetric(float64(m["after"])/float64(m["direct"]), "after/direct")
	b.ReportMetric(float64(m["face"])/float64(m["direct"]), "face/direct")
	// What the gateway adds to the face's own cost, against the direct call.
	b.ReportMetric(float64(m["face"]-m["face-local"])/float64(m["direct"]), "(face-local)/direct")
}

// serveWorkspace writes and trusts the workspace of BenchmarkMCPServerCall's
// `toolhost serve`: the gosdk server as [mcp_servers.g], its tool served
// by a toolset.
func serveWorkspace(f *fixture) (string, error) {
	ws := filepath.Join(f.dir, "ws-serve-gosdk")
	if err := writeFile(filepath.Join(ws, ".config/toolhost/tools.toml"),
		fmt.Sprintf("[mcp_servers.g]\ncommand = %q\n\n[toolsets.g]\nsource = \"mcp.g\"\n", f.gosdk)); err != nil {
		return "", err
	}
	w, err := config.FindWorkspace(ws)
	if err != nil {
		return "", err
	}
	_, err = (&trust.Store{Dir: filepath.Join(f.dir, "data", "toolhost", "trust")}).Trust(w.Root, w.Sums())
	return ws, err
}

// serversWS are the workspaces of BenchmarkWarmListServers, built once.
var serversWS struct {
	once       sync.Once
	none, five string
	err        error
}

// BenchmarkWarmListServers is a warm `toolhost list` of a workspace with
// five MCP servers configured (the gosdk server five times, each served
// by a toolset; their listings cached by an earlier list), against the
// same workspace without them (five local tools of five). Goal ≤ 1.1×
// (docs/performance.md); that such a list starts no server is tested by
// internal/source/servers' TestWarmListFiveServers.
func BenchmarkWarmListServers(b *testing.B) {
	f := setup(b)
	serversWS.once.Do(func() { serversWS.none, serversWS.five, serversWS.err = serversWorkspaces(f) })
	if serversWS.err != nil {
		b.Fatal(serversWS.err)
	}
	v := f.variants[len(f.variants)-1] // "after": the servers are this tree's feature
	for _, ws := range []string{serversWS.none, serversWS.five} {
		v.run(b, ws, "list") // warm: the resolution, the servers' listings
	}
	m := measure(b, []string{"none", "five"}, []func() time.Duration{
		func() time.Duration { return v.run(b, serversWS.none, "list") },
		func() time.Duration { return v.run(b, serversWS.five, "list") },
	})
	b.ReportMetric(float64(m["five"])/float64(m["none"]), "after/none")
}

// serversWorkspaces writes and trusts the two workspaces of
// BenchmarkWarmListServers.
func serversWorkspaces(f *fixture) (none, five string, err error) {
	local := func(ws string) (string, error) {
		bin := filepath.Join(ws, "bin/five")
		if err := copyFile(f.five, bin); err != nil {
			return "", err
		}
		var cfg strings.Builder
		for _, t := range []string{"alpha", "bravo", "charlie", "delta", "echo"} {
			fmt.Fprintf(&cfg, "[tools.%s]\ncommand = \"bin/five\"\ntool = %q\n\n", t, t)
		}
		return cfg.String(), nil
	}
	none, five = filepath.Join(f.dir, "ws-servers-none"), filepath.Join(f.dir, "ws-servers-five")
	for _, ws := range []string{none, five} {
		cfg, err := local(ws)
		if err != nil {
			return "", "", err
		}
		if ws == five {
			for i := range 5 {
				cfg += fmt.Sprintf("[mcp_servers.s%d]\ncommand = [%q, \"--server-%d\"]\n\n[toolsets.s%d]\nsource = \"mcp.s%d\"\nprefix = \"s%d_\"\n\n", i, f.gosdk, i, i, i, i)
			}
		}
		if err := writeFile(filepath.Join(ws, ".config/toolhost/tools.toml"), cfg); err != nil {
			return "", "", err
		}
		w, err := config.FindWorkspace(ws)
		if err != nil {
			return "", "", err
		}
		if _, err := (&trust.Store{Dir: filepath.Join(f.dir, "data", "toolhost", "trust")}).Trust(w.Root, w.Sums()); err != nil {
			return "", "", err
		}
	}
	if _, err := os.Stat(f.gosdk); err != nil {
		return "", "", err
	}
	return none, five, nil
}

// procCPU is the CPU time the process pid has used so far, summed over
// its threads (/proc/PID/task/*/schedstat, in nanoseconds; the clock
// ticks of /proc/PID/stat are too coarse for a few hundred calls).
func procCPU(b *testing.B, pid int) time.Duration {
	tasks, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/schedstat", pid))
	if err != nil || len(tasks) == 0 {
		b.Fatalf("the CPU time of process %d: no /proc/%d/task/*/schedstat (%v)", pid, pid, err)
	}
	var sum time.Duration
	for _, t := range tasks {
		data, err := os.ReadFile(t)
		if err != nil {
			continue // a thread that ended since the glob
		}
		var ns int64
		if _, err := fmt.Sscan(string(data), &ns); err != nil {
			b.Fatalf("%s: %v", t, err)
		}
		sum += time.Duration(ns)
	}
	return sum
}
