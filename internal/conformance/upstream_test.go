package conformance

import (
	"bufio"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"
)

// upstreamScenarios are the suite's scenarios of what an MCP server
// offers beside its tools: resources, resource templates, subscriptions,
// prompts (with their content) and completions; and of the content
// blocks of its tools' results.
var upstreamScenarios = []string{
	"resources-list",
	"resources-read-text",
	"resources-read-binary",
	"resources-templates-read",
	"resources-subscribe",
	"resources-unsubscribe",
	"prompts-list",
	"prompts-get-simple",
	"prompts-get-with-args",
	"prompts-get-embedded-resource",
	"prompts-get-with-image",
	"completion-complete",
	"tools-call-simple-text",
	"tools-call-image",
	"tools-call-audio",
	"tools-call-embedded-resource",
	"tools-call-mixed-content",
}

// TestConformanceUpstream runs the scenarios of an upstream server's
// offer against examples/upstream directly, and against toolhost serve
// --http whose only source is that server: each passes both ways.
func TestConformanceUpstream(t *testing.T) {
	root, node := suite(t)
	dir := build(t, root, "./cmd/toolhost", "./examples/upstream")
	direct := serveUpstream(t, filepath.Join(dir, "bin", "upstream"))
	through, serverLog := serve(t, dir, filepath.Join(root, "internal", "conformance", "testdata", "upstream.toml"))
	for _, name := range upstreamScenarios {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if passed, report := runScenario(t, node, root, direct, name); !passed {
				t.Fatalf("scenario %s fails against examples/upstream itself; the suite says:\n%s", name, report)
			}
			if passed, report := runScenario(t, node, root, through, name); !passed {
				t.Errorf("scenario %s passes against examples/upstream but fails through toolhost; the suite says:\n%s\ntoolhost's stderr:\n%s", name, report, serverLog())
			}
		})
	}
}

// serveUpstream starts examples/upstream (the binary bin) on streamable
// HTTP on a free loopback port and returns the URL it serves.
func serveUpstream(t *testing.T, bin string) string {
	t.Helper()
	cmd := exec.Command(bin, "-http", "127.0.0.1:0")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := upstreamOn.FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
			}
		}
	}()
	select {
	case a := <-addr:
		return "http://" + a + "/"
	case <-time.After(30 * time.Second):
		t.Fatal("no 'serving on http://ADDR' line from examples/upstream in 30s")
	}
	return ""
}

var upstreamOn = regexp.MustCompile(`^serving on http://(\S+)`)
