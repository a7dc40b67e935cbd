package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/internal/face/mcpserver/mcptest"
	"github.com/toolhost/toolhost/internal/invoke/faketool"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/face/mcpserver"
	"github.com/toolhost/toolhost/resolver"
	"github.com/toolhost/toolhost/tool"
)

// TestMain lets the test binary play faketool's shared tools and, as
// "serve", `toolhost serve`: it serves testCatalog over stdio, as the CLI
// does, with the tools of the TOML file $MCPSERVER_TEST_CONFIG, if set, and
// $MCPSERVER_TEST_DRAIN as Options.DrainTimeout, if set.
func TestMain(m *testing.M) {
	faketool.Main(m, faketool.Scenarios{"serve": serveMain, "v2tool": v2Tool})
}

func serveMain() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var cfg *config.Config
	if file := os.Getenv("MCPSERVER_TEST_CONFIG"); file != "" {
		var err error
		cfg, err = config.Load(&config.LoadOptions{Files: []string{file}, NoUser: true, NoWorkspace: true})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
	}
	cat, err := testCatalog(ctx, cfg, &probe{dir: os.Getenv("MCPSERVER_TEST_DIR")})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	var opts mcpserver.Options
	if d := os.Getenv("MCPSERVER_TEST_DRAIN"); d != "" {
		if opts.DrainTimeout, err = time.ParseDuration(d); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
	}
	s := mcpserver.New(cat, &opts)
	if err := s.ServeStdio(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "serve:", err)
		return 1
	}
	return 0
}

// probe records what the slow tool saw: how many run at once, and (in a
// directory, for the helper process) that it was cancelled.
type probe struct {
	dir       string
	running   atomic.Int32
	peak      atomic.Int32
	cancelled atomic.Int32
	started   chan struct{} // receives once per slow call started, if non-nil
}

// testCatalog is a catalog of dynamic tools:
//
//	echo(text, times=1)  success with text repeated
//	fail()               an error outcome
//	slow()               waits for its ctx (records cancellation)
//	register(name)       registers a new tool "name" (a catalog change)
func testCatalog(ctx context.Context, cfg *config.Config, p *probe) (*resolver.Catalog, error) {
	cat, err := resolver.New(ctx, cfg, &resolver.Options{Root: os.TempDir()})
	if err != nil {
		return nil, err
	}
	must := func(err error) {
		if err != nil {
			panic(err)
		}
	}
	must(cat.Register(catalog.Definition{
		Name:    "echo",
		Summary: "Repeat a text.",
		InputSchema: map[string]any{
			"type": "object",
			"properties": map[string]any{
				"text":  map[string]any{"type": "string", "description": "What to say."},
				"times": map[string]any{"type": "integer", "default": 1},
			},
			"required":             []any{"text"},
			"additionalProperties": false,
		},
		Annotations: map[string]any{"readOnlyHint": true},
	}, func(ctx context.Context, args map[string]any) (tool.Outcome, error) {
		if args["text"] == "show args" { // the arguments as the tool got them
			data, err := tool.Marshal(args)
			return tool.Success(string(data)), err
		}
		n := 1
		if v, ok := args["times"].(json.Number); ok { // every number is one
			i, _ := v.Int64()
			n = int(i)
		}
		return tool.Success(strings.Repeat(args["text"].(string), n)), nil
	}))
	must(cat.Register(catalog.Definition{Name: "fail", Summary: "Always fails."},
		func(ctx context.Context, args map[string]any) (tool.Outcome, error) {
			return tool.Fail("it broke", "deep cause"), nil
		}))
	must(cat.Register(catalog.Definition{Name: "slow", Summary: "Waits until cancelled."},
		func(ctx context.Context, args map[string]any) (tool.Outcome, error) {
			n := p.running.Add(1)
			defer p.running.Add(-1)
			for {
				peak := p.peak.Load()
				if n <= peak || p.peak.CompareAndSwap(peak, n) {
					break
				}
			}
			if p.started != nil {
				p.started <- struct{}{}
			}
			if p.dir != "" {
				os.WriteFile(filepath.Join(p.dir, "started"), nil, 0o644)
			}
			select {
			case <-ctx.Done():
			case <-time.After(time.Minute):
				return tool.Success("not cancelled"), nil
			}
			time.Sleep(50 * time.Millisecond) // a tool process takes a moment to die
			p.cancelled.Add(1)
			if p.dir != "" {
				os.WriteFile(filepath.Join(p.dir, "cancelled"), nil, 0o644)
			}
			return tool.Outcome{}, ctx.Err()
		}))
	must(cat.Register(catalog.Definition{
		Name:    "register",
		Summary: "Registers a tool.",
		InputSchema: map[string]any{
			"type":       "object",
			"properties": map[string]any{"name": map[string]any{"type": "string"}},
			"required":   []any{"name"},
		},
	}, func(ctx context.Context, args map[string]any) (tool.Outcome, error) {
		name := args["name"].(string)
		err := cat.Register(catalog.Definition{Name: name, Summary: "Registered at run time."},
			func(ctx context.Context, args map[string]any) (tool.Outcome, error) {
				return tool.Success("hello from " + name), nil
			})
		if err != nil {
			return tool.Fail(err.Error()), nil
		}
		return tool.Success("registered " + name), nil
	}))
	return cat, nil
}

// connect runs s on one end of an in-memory pipe and returns a session on
// the other end. The session is closed and the server waited for at cleanup.
func connect(t *testing.T, s *mcpserver.Server, c *mcp.Client, opts *mcp.ClientSessionOptions) *mcp.ClientSession {
	t.Helper()
	st, ct := mcp.NewInMemoryTransports()
	ran := make(chan error, 1)
	go func() { ran <- s.Run(context.Background(), st) }()
	cs, err := c.Connect(t.Context(), ct, opts)
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	t.Cleanup(func() {
		cs.Close()
		select {
		case err := <-ran:
			if err != nil {
				t.Errorf("Run: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Errorf("Run did not return after the client closed")
		}
	})
	return cs
}

// connectHTTP serves s's streamable HTTP handler on a real listener and
// returns a session with it.
func connectHTTP(t *testing.T, s *mcpserver.Server, c *mcp.Client, opts *mcp.ClientSessionOptions) *mcp.ClientSession {
	t.Helper()
	srv := httptest.NewServer(s.Handler())
	cs, err := c.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: srv.URL}, opts)
	if err != nil {
		srv.Close()
		t.Fatalf("Connect: %v", err)
	}
	t.Cleanup(func() {
		cs.Close()
		s.Close()
		srv.Close()
	})
	return cs
}

// The MCP client helpers shared with the other face's tests.
var (
	newClient   = mcptest.NewClient
	waitChanged = mcptest.WaitChanged
	text        = mcptest.Text
)
