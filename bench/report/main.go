// Command report turns the output of the figures benchmarks (package
// bench/figures, run with -count N) into the table of docs/performance.md:
// for each figure, its baseline, its goal, the range of the
// "before" variant when one ran, the range measured over the repetitions,
// and whether every repetition met the goal.
//
//	go test -run='^$' -bench=. -benchtime=15x -count=3 ./bench/figures > figures.txt
//	go run ./bench/report figures.txt
//
// It exits 0 whether or not the goals are met: it reports, it does not
// judge a build. A figure whose benchmark did not run is listed as such.
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// A figure is one row of the table: the metric (as the benchmark reports
// it, "after/…" for the tree under test) and its goal, at most Goal.
type figure struct {
	Name     string
	Bench    string  // benchmark name without "Benchmark" and the -N suffix
	Metric   string  // the metric of the "after" variant
	Baseline string  // what the ratio is against, in words
	BaseMS   string  // the baseline's metric in ms (in KiB if it ends in "-KiB"), shown beside it ("" if none)
	Goal     float64 // 0: a reference row, whose goal and met? read —
	Unit     string  // "×", "ms", "MB", "KiB"
}

// figures are the table of docs/performance.md, in its order.
var figures = []figure{
	{"P1 cold resolution, 200 entries / 40 binaries", "ColdResolution", "after/bare", "bare parallel exec of the 40", "bare-parallel-ms", 1.25, "×"},
	{"P1 against the bare exec in a process of its own (reference)", "ColdResolution", "after/bare-process", "the same bare exec from a Go process", "bare-process-ms", 0, "×"},
	{"P2 warm `toolhost list`, 200 entries", "WarmList", "after/version", "`toolhost --version`", "after-version-ms", 1.5, "×"},
	{"P2, against the issue table's baseline", "WarmList", "after/help", "`toolhost --help`", "after-help-ms", 1.5, "×"},
	{"P3 warm `toolhost call` of one tool", "WarmCall", "after/(version+exec)", "`--version` + bare exec", "", 1.25, "×"},
	{"P3, against the issue table's baseline", "WarmCall", "after/(help+exec)", "`--help` + bare exec", "", 1.25, "×"},
	{"MCP stdio `tools/call`, one-shot", "MCPCall", "after/exec", "bare exec of the binary", "bare-exec-ms", 1.2, "×"},
	{"1000 tools: warm `list`, over `--version`", "WarmList1000", "after-over-version-ms", "`toolhost --version`", "after-version-ms", 10, "ms"},
	{"1000 tools: raw MCP `tools/list` on stdio", "MCPList1000", "after-ms", "`ping`, same session", "after-ping-ms", 3, "ms"},
	{"1000 tools: `GET /tools`", "HTTP1000", "after-tools-ms", "a 404", "after-404-ms", 1, "ms"},
	{"1000 tools: `GET /api/v1/tools`", "HTTP1000", "after-manifest-ms", "a 404", "after-404-ms", 1, "ms"},
	{"1000 tools: `GET /identity`", "HTTP1000", "after-identity-ms", "a 404", "after-404-ms", 0.2, "ms"},
	{"`serve` RSS with 1000 tools (peak, VmHWM)", "ServeRSS", "after-VmHWM-max-MB", "—", "", 30, "MB"},
	{"`serve` start to its `initialize` answer, 20 tools (reference)", "ServeStart", "after-20-init/version", "`toolhost --version`", "after-version-ms", 0, "×"},
	{"`serve` start to its `initialize` answer, 200 tools (reference)", "ServeStart", "after-200-init/version", "`toolhost --version`", "after-version-ms", 0, "×"},
	{"`serve` start to its `initialize` answer, 1000 tools (reference)", "ServeStart", "after-1000-init/version", "`toolhost --version`", "after-version-ms", 0, "×"},
	{"`serve` start to its first `tools/list` answer, 20 tools (reference)", "ServeStart", "after-20-list/version", "`toolhost --version`", "after-version-ms", 0, "×"},
	{"`serve` start to its first `tools/list` answer, 200 tools (reference)", "ServeStart", "after-200-list/version", "`toolhost --version`", "after-version-ms", 0, "×"},
	{"`serve` start to its first `tools/list` answer, 1000 tools (reference)", "ServeStart", "after-1000-list/version", "`toolhost --version`", "after-version-ms", 0, "×"},
	{"long-lived SDK tool over MCP `tools/call`", "MCPCallLongLived", "after/exec", "bare exec of the binary", "bare-exec-ms", 0.2, "×"},
	{"long-lived SDK tool over MCP `tools/call`", "MCPCallLongLived", "after/go-sdk", "in-process go-sdk tool handler", "go-sdk-ms", 3, "×"},
	{"sandboxed one-shot MCP `tools/call`", "SandboxCall", "after/unsandboxed", "the same call unsandboxed", "unsandboxed-ms", 1.15, "×"},
	{"sandboxed long-lived MCP `tools/call`", "SandboxCallLongLived", "after/unsandboxed", "the same call unsandboxed", "unsandboxed-ms", 1.05, "×"},
	{"`search_tools`, one query over 10,000 tools", "ToolSearch", "after-ms", "a substring scan of the names", "scan-ms", 1, "ms"},
	{"`tools/list` with `--tool-search`, 1000 tools", "ToolSearchListing", "on-1000-KiB", "the listing without it", "off-1000-KiB", 2, "KiB"},
	{"`tools/list` with `--tool-search`, this repository's catalog", "ToolSearchListing", "on-repo-KiB", "the listing without it", "off-repo-KiB", 2, "KiB"},
	{"a stdio MCP server's tool through `Catalog.Call`, one MCP hop (the Go API)", "MCPServerCall", "after/direct", "the go-sdk client calling it directly", "direct-ms", 1.2, "×"},
	{"a stdio MCP server's tool through the MCP face, in-memory transport", "MCPServerCall", "face/direct", "the go-sdk client calling it directly", "direct-ms", 1.2, "×"},
	{"a stdio MCP server's tool through `toolhost serve` on stdio, two MCP hops (over MCP)", "MCPServerCall", "serve/direct", "the go-sdk client calling it directly", "direct-ms", 1.2, "×"},
	{"the same through the go-sdk's smallest gateway (two hops, no toolhost)", "MCPServerCall", "gateway/direct", "the go-sdk client calling it directly", "direct-ms", 1.2, "×"},
	{"what `serve` adds over that gateway: its call", "MCPServerCall", "serve/gateway", "the gateway's call", "gateway-ms", 1.1, "×"},
	{"what `serve` adds over that gateway: its CPU per call (reference)", "MCPServerCall", "serve-cpu/gateway-cpu", "the gateway process's CPU per call", "gateway-cpu-ms", 0, "×"},
	{"the same, the gateway at serve's GC setting: its call (reference)", "MCPServerCall", "serve/gateway-floor", "that gateway's call", "gateway-floor-ms", 0, "×"},
	{"the same, the gateway at serve's GC setting: its CPU per call (reference)", "MCPServerCall", "serve-cpu/gateway-floor-cpu", "that gateway process's CPU per call", "gateway-floor-cpu-ms", 0, "×"},
	{"`serve`'s resident set after these calls (reference)", "MCPServerCall", "serve-rss-MB", "the gateway's", "gateway-rss-MB", 0, "MB"},
	{"the gateway's at serve's GC setting (reference)", "MCPServerCall", "gateway-floor-rss-MB", "the gateway's", "gateway-rss-MB", 0, "MB"},
	{"warm `toolhost list`, 5 MCP servers configured", "WarmListServers", "after/none", "the same list without them", "none-ms", 1.1, "×"},
	{"`serve --http` calls at 64 in flight, audit log on (≥ 0.95× calls/s)", "ServeAudit", "after/off", "the same calls with `--audit off`", "off-ms", 1.053, "×"},
	{"a call through an OAuth-protected HTTP server, stored token", "OAuthCall", "oauth/bearer", "the same server with a static bearer token", "bearer-ms", 1.05, "×"},
}

// results holds every value of every metric of every benchmark, in the
// order of the repetitions.
type results map[string]map[string][]float64

// parse reads `go test -bench` output. Lines that are not benchmark
// results are skipped, and so is the header; the cpu line is returned.
func parse(r io.Reader) (results, string, error) {
	res := results{}
	cpu := ""
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if c, ok := strings.CutPrefix(line, "cpu: "); ok {
			cpu = c
			continue
		}
		fields := strings.Fields(line)
		if len(fields) < 4 || !strings.HasPrefix(fields[0], "Benchmark") {
			continue
		}
		name := strings.TrimPrefix(fields[0], "Benchmark")
		if i := strings.LastIndexByte(name, '-'); i > 0 {
			if _, err := strconv.Atoi(name[i+1:]); err == nil {
				name = name[:i]
			}
		}
		if _, err := strconv.Atoi(fields[1]); err != nil {
			continue // not a result line (a benchmark's own output)
		}
		for i := 2; i+1 < len(fields); i += 2 {
			v, err := strconv.ParseFloat(fields[i], 64)
			if err != nil {
				return nil, "", fmt.Errorf("%s: value %q of %s is not a number", fields[0], fields[i], fields[i+1])
			}
			if res[name] == nil {
				res[name] = map[string][]float64{}
			}
			res[name][fields[i+1]] = append(res[name][fields[i+1]], v)
		}
	}
	return res, cpu, sc.Err()
}

// span is the range of vs, formatted with the figure's unit.
func span(vs []float64, unit string) string {
	lo, hi := vs[0], vs[0]
	for _, v := range vs {
		lo, hi = min(lo, v), max(hi, v)
	}
	f := func(v float64) string {
		switch {
		case unit == "×" || v < 1:
			return strconv.FormatFloat(v, 'f', 2, 64)
		default:
			return strconv.FormatFloat(v, 'f', 1, 64)
		}
	}
	if f(lo) == f(hi) {
		return f(lo) + " " + unit
	}
	return f(lo) + "–" + f(hi) + " " + unit
}

// write prints the table of res.
func write(w io.Writer, res results, cpu string, now time.Time) {
	fmt.Fprintf(w, "Machine: %s, %d cores, %s/%s, %s. Date: %s. Ranges are over the repetitions (-count).\n\n",
		orUnknown(cpu), runtime.NumCPU(), runtime.GOOS, runtime.GOARCH, runtime.Version(), now.Format("2006-01-02"))
	fmt.Fprintln(w, "| figure | baseline (same run) | goal | before | measured | met? |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|")
	for _, f := range figures {
		m := res[f.Bench]
		vs := m[f.Metric]
		goal := fmt.Sprintf("≤ %g %s", f.Goal, f.Unit)
		if f.Goal == 0 {
			goal = "—"
		}
		if len(vs) == 0 {
			fmt.Fprintf(w, "| %s | %s | %s | | not run | |\n", f.Name, f.Baseline, goal)
			continue
		}
		base := f.Baseline
		if b := m[f.BaseMS]; len(b) > 0 {
			unit := "ms"
			if strings.HasSuffix(f.BaseMS, "-KiB") {
				unit = "KiB"
			} else if strings.HasSuffix(f.BaseMS, "-MB") {
				unit = "MB"
			}
			base += ", " + span(b, unit)
		}
		before := "—"
		if b := m[beforeMetric(f.Metric)]; len(b) > 0 {
			before = span(b, f.Unit)
		}
		met := "**yes**"
		for _, v := range vs {
			if v > f.Goal {
				met = "no"
			}
		}
		if f.Goal == 0 {
			met = "—"
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s |\n", f.Name, base, goal, before, span(vs, f.Unit), met)
	}
}

// beforeMetric is the metric of the "before" variant for a metric of the
// tree under test: "after/x" has "before/x", and a metric of a named
// measurement, "serve/x" or "serve-cpu/x", has "serve-before/x" or
// "serve-cpu-before/x" (BenchmarkMCPServerCall's serve of TOOLHOST_BEFORE).
// A named value, "serve-rss-MB", has "serve-before-rss-MB".
func beforeMetric(metric string) string {
	if rest, ok := strings.CutPrefix(metric, "after"); ok {
		return "before" + rest
	}
	if name, rest, ok := strings.Cut(metric, "/"); ok {
		return name + "-before/" + rest
	}
	name, rest, _ := strings.Cut(metric, "-")
	return name + "-before-" + rest
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown cpu"
	}
	return s
}

func main() {
	var in io.Reader = os.Stdin
	switch len(os.Args) {
	case 1:
	case 2:
		f, err := os.Open(os.Args[1])
		if err != nil {
			fmt.Fprintln(os.Stderr, "report:", err)
			os.Exit(1)
		}
		defer f.Close()
		in = f
	default:
		fmt.Fprintln(os.Stderr, "usage: report [FILE]   (the output of go test -bench ./bench/figures; stdin without FILE)")
		os.Exit(2)
	}
	res, cpu, err := parse(in)
	if err != nil {
		fmt.Fprintln(os.Stderr, "report:", err)
		os.Exit(1)
	}
	if len(res) == 0 {
		fmt.Fprintln(os.Stderr, "report: no benchmark results in the input; run: go test -run='^$' -bench=. -count=3 ./bench/figures")
		os.Exit(1)
	}
	write(os.Stdout, res, cpu, time.Now())
}
