package conformance

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// scenarios are the tool scenarios of the suite, in its order. A scenario
// with a reason is one toolhost cannot pass, for that reason: it is run
// all the same and must fail, so that the day it passes this table (and
// docs/mcp.md) is updated.
var scenarios = []struct {
	name, unsupported string
}{
	{"tools-list", ""},
	{"tools-call-simple-text", ""},
	{"tools-call-image", ""},
	{"tools-call-audio", ""},
	{"tools-call-embedded-resource", ""},
	{"tools-call-mixed-content", ""},
	{"tools-call-with-logging", ""},
	{"tools-call-error", ""},
	{"tools-call-with-progress", ""},
	{"tools-call-sampling", "a tool binary cannot ask the client's model: the tool protocol has no sampling"},
	{"tools-call-elicitation", ""},
	{"json-schema-2020-12", ""},
	{"elicitation-sep1034-defaults", ""},
	{"elicitation-sep1330-enums", ""},
}

// suitePath is the suite's entry point, relative to the repository root.
const suitePath = "conformance/node_modules/@modelcontextprotocol/conformance/dist/index.js"

const installHint = "MCP conformance suite not installed: run `cd conformance && npm ci` (needs node and npm)"

func TestConformance(t *testing.T) {
	if testing.Short() {
		t.Skip("builds toolhost and runs node: skipped under -short")
	}
	root, node := suite(t)
	dir := build(t, root, "./cmd/toolhost", "./examples/conformance")
	url, serverLog := serve(t, dir, filepath.Join(root, "internal", "conformance", "testdata", "toolhost.toml"))

	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			t.Parallel() // each scenario is its own client session of the one server
			passed, report := runScenario(t, node, root, url, sc.name)
			switch {
			case sc.unsupported == "" && !passed:
				t.Errorf("scenario %s failed; the suite says:\n%s\ntoolhost's stderr:\n%s", sc.name, report, serverLog())
			case sc.unsupported != "" && passed:
				t.Errorf("scenario %s passes now, though listed as unsupported (%s): remove the reason here and update docs/mcp.md", sc.name, sc.unsupported)
			case sc.unsupported != "":
				t.Logf("fails as expected: %s", sc.unsupported)
			}
		})
	}
}

// suite returns the repository's root and the node the suite runs on. It
// skips the test under -short and when the suite is not installed, unless
// CI is set: then it fails.
func suite(t *testing.T) (root, node string) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds toolhost and runs node: skipped under -short")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	node, err = exec.LookPath("node")
	if err == nil {
		_, err = os.Stat(filepath.Join(root, suitePath))
	}
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s (CI is set, so this fails rather than skips): %v", installHint, err)
		}
		t.Skip(installHint)
	}
	return root, node
}

// build builds the packages pkgs of the repository at root into the bin/
// of a new directory, which it returns.
func build(t *testing.T, root string, pkgs ...string) string {
	t.Helper()
	dir := t.TempDir()
	cmd := exec.CommandContext(t.Context(), "go", append([]string{"build", "-o", filepath.Join(dir, "bin") + "/"}, pkgs...)...)
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return dir
}

// runScenario runs the suite's server scenario name against the MCP
// endpoint url and returns whether it passed and the suite's report.
func runScenario(t *testing.T, node, root, url, name string) (bool, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node,
		"--import", filepath.Join(root, "conformance", "node20.mjs"),
		filepath.Join(root, suitePath), "server", "--url", url, "--scenario", name)
	cmd.Dir = t.TempDir() // where the suite may write results/
	out, err := cmd.CombinedOutput()
	report := ansi.ReplaceAllString(string(out), "")
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) {
		t.Fatalf("running the suite: %v\n%s", err, report)
	}
	return err == nil, report
}

// ansi matches the colour escapes of the suite's output.
var ansi = regexp.MustCompile("\x1b\\[[0-9;]*m")

// serve starts toolhost serve --http on a free loopback port, with dir as
// the workspace root (its bin/ holds the binaries) and config as the only
// configuration, and returns the URL of /mcp and a function returning what
// the server wrote on stderr so far. The server is stopped (SIGTERM) when
// the test ends.
func serve(t *testing.T, dir, config string) (string, func() string) {
	t.Helper()
	cmd := exec.Command(filepath.Join(dir, "bin", "toolhost"), "--root", dir, "--config", config, "--no-cache",
		"serve", "--http", "127.0.0.1:0", "--allow-execute")
	cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+filepath.Join(dir, "xdg")) // no user configuration
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var (
		mu  sync.Mutex
		log bytes.Buffer
	)
	logged := func() string {
		mu.Lock()
		defer mu.Unlock()
		return log.String()
	}
	addr := make(chan string, 1)
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			mu.Lock()
			fmt.Fprintln(&log, sc.Text())
			mu.Unlock()
			if m := servingOn.FindStringSubmatch(sc.Text()); m != nil && strings.HasPrefix(sc.Text(), "serving ") {
				select {
				case addr <- m[1]:
				default:
				}
			}
		}
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan error, 1)
		go func() { <-copied; done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(15 * time.Second):
			_ = cmd.Process.Kill()
			t.Errorf("toolhost serve did not exit after SIGTERM; stderr:\n%s", logged())
		}
	})
	select {
	case a := <-addr:
		return "http://" + a + "/mcp", logged
	case <-copied:
		t.Fatalf("toolhost serve exited before serving; stderr:\n%s", logged())
	case <-time.After(30 * time.Second):
		t.Fatalf("no 'serving … on http://ADDR' line from toolhost serve in 30s; stderr:\n%s", logged())
	}
	return "", nil // not reached: t.Fatalf ends the test
}

// servingOn finds the address in the "serving N tools on http://ADDR" line.
var servingOn = regexp.MustCompile(`on http://(\S+)`)
