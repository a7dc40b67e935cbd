package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	f, err := os.Open("testdata/figures.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res, cpu, err := parse(f)
	if err != nil {
		t.Fatal(err)
	}
	if cpu != "AMD EPYC" {
		t.Errorf("cpu = %q", cpu)
	}
	tests := []struct {
		bench, metric string
		want          []float64
	}{
		{"ColdResolution", "after/bare", []float64{1.772, 1.231}},
		{"ColdResolution", "after/bare-process", []float64{1.601, 1.158}},
		{"WarmList", "before/version", []float64{1.9, 2.1}},
		// The line split by a server's output is skipped, not misread.
		{"HTTP1000", "after-identity-ms", []float64{0.1558}},
		{"ServeRSS", "after-VmHWM-max-MB", []float64{28.47}},
	}
	for _, tt := range tests {
		got := res[tt.bench][tt.metric]
		if len(got) != len(tt.want) {
			t.Errorf("%s %s = %v, want %v", tt.bench, tt.metric, got, tt.want)
			continue
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("%s %s = %v, want %v", tt.bench, tt.metric, got, tt.want)
			}
		}
	}
}

func TestParseBadValue(t *testing.T) {
	_, _, err := parse(strings.NewReader("BenchmarkX-2 \t 15 \t 1.5 after/bare \t oops after-ms\n"))
	want := `BenchmarkX-2: value "oops" of after-ms is not a number`
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v, want %s", err, want)
	}
}

func TestWrite(t *testing.T) {
	f, err := os.Open("testdata/figures.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res, cpu, err := parse(f)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	write(&b, res, cpu, time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC))
	got := b.String()
	for _, want := range []string{
		"Machine: AMD EPYC, ",
		"Date: 2026-11-22.",
		"| P1 cold resolution, 200 entries / 40 binaries | bare parallel exec of the 40, 46.9–48.0 ms | ≤ 1.25 × | — | 1.23–1.77 × | no |\n",
		"| P1 against the bare exec in a process of its own (reference) | the same bare exec from a Go process, 51.0–51.9 ms | — | — | 1.16–1.60 × | — |\n",
		"| P2 warm `toolhost list`, 200 entries | `toolhost --version`, 6.4–6.7 ms | ≤ 1.5 × | 1.90–2.10 × | 1.33–1.34 × | **yes** |\n",
		"| 1000 tools: `GET /identity` | a 404, 0.14 ms | ≤ 0.2 ms | — | 0.16 ms | **yes** |\n",
		"| 1000 tools: `GET /api/v1/tools` | a 404, 0.14 ms | ≤ 1 ms | — | 0.49 ms | **yes** |\n",
		"| `serve` RSS with 1000 tools (peak, VmHWM) | — | ≤ 30 MB | — | 28.5 MB | **yes** |\n",
		"| P3 warm `toolhost call` of one tool | `--version` + bare exec | ≤ 1.25 × | | not run | |\n",
		"| `search_tools`, one query over 10,000 tools | a substring scan of the names, 0.31 ms | ≤ 1 ms | — | 0.03 ms | **yes** |\n",
		"| `tools/list` with `--tool-search`, 1000 tools | the listing without it, 561.5 KiB | ≤ 2 KiB | — | 1.0 KiB | **yes** |\n",
		"| `tools/list` with `--tool-search`, this repository's catalog | the listing without it, 5.3 KiB | ≤ 2 KiB | — | 1.0 KiB | **yes** |\n",
		// A named measurement's before (serve-before/direct), and reference
		// rows without a goal.
		"| a stdio MCP server's tool through `toolhost serve` on stdio, two MCP hops (over MCP) | the go-sdk client calling it directly, 0.35–0.36 ms | ≤ 1.2 × | 2.50–2.61 × | 2.13–2.41 × | no |\n",
		"| what `serve` adds over that gateway: its call | the gateway's call, 0.64–0.71 ms | ≤ 1.1 × | 1.31–1.36 × | 1.16–1.21 × | no |\n",
		"| what `serve` adds over that gateway: its CPU per call (reference) | the gateway process's CPU per call, 0.41–0.44 ms | — | 1.44–1.46 × | 1.19–1.22 × | — |\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
}

func TestBeforeMetric(t *testing.T) {
	for _, tt := range []struct{ metric, want string }{
		{"after/bare", "before/bare"},
		{"after-VmHWM-max-MB", "before-VmHWM-max-MB"},
		{"serve/gateway", "serve-before/gateway"},
		{"serve-cpu/gateway-cpu", "serve-cpu-before/gateway-cpu"},
		{"serve-rss-MB", "serve-before-rss-MB"},
	} {
		if got := beforeMetric(tt.metric); got != tt.want {
			t.Errorf("beforeMetric(%q) = %q, want %q", tt.metric, got, tt.want)
		}
	}
}
