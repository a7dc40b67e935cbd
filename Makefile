# Thin wrappers around the go command. See README.md.
GO      ?= go
BIN     := $(CURDIR)/bin
FUZZTIME ?= 10s

.PHONY: all build check test vet fmt-check bench fuzz demo clean

# The go test runs of make check and make test. scripts/isolated.sh moves
# HOME and the XDG directories to a fresh directory and fails if a test
# wrote there: no test touches the user's configuration, state or cache.
# A process built with -race sleeps a second when it exits (GORACE's
# atexit_sleep_ms), once per test binary and per helper process: none here.
export GORACE := $(strip atexit_sleep_ms=0 $(GORACE))
GOTEST := $(CURDIR)/scripts/isolated.sh $(GO) test -count=1

all: build

## build: every binary (the toolhost CLI and the example tools) into bin/
build:
	@mkdir -p $(BIN)
	$(GO) build -o $(BIN)/ ./cmd/... ./examples/...
	@for f in examples/sh/*.sh; do [ -e "$$f" ] || continue; install -m 0755 "$$f" "$(BIN)/$$(basename $$f .sh)"; done

## check: the edit loop (under two minutes on two cores): vet, gofmt, and the tests under -short
## (no browser, no npm servers, no built toolhost) without the race detector
check: vet fmt-check
	$(GOTEST) -short ./...

## test: vet, gofmt, and every test with the race detector (what CI runs)
test: build vet fmt-check
	@command -v chromium >/dev/null || command -v chromium-browser >/dev/null || command -v google-chrome >/dev/null || [ -n "$$CHROMIUM" ] || \
	  echo "tool browser tests skipped: no Chromium found; install it (Debian: apt-get install -y chromium) or set CHROMIUM to its path"
	@[ -e conformance/node_modules/@modelcontextprotocol/conformance ] || \
	  echo "MCP conformance tests skipped: suite not installed; run: cd conformance && npm ci"
	@[ -e internal/source/mcp/testdata/npm/node_modules/.bin/mcp-server-everything ] || \
	  echo "MCP server end-to-end tests skipped: servers not installed; run: cd internal/source/mcp/testdata/npm && npm ci"
	$(GOTEST) -race ./...
	cd interop/mcpgo && $(GOTEST) -race ./...

vet:
	$(GO) vet ./...

fmt-check:
	@out="$$(gofmt -l . | grep -v '^bin/' || true)"; if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

## bench: the figures of docs/performance.md, each a ratio against a baseline measured in
## the same run, BENCHCOUNT repetitions (benchstat-style), then the table (bench/out/report.md)
## and the other benchmarks of the module; everything is kept in bench/out/
BENCHCOUNT ?= 3
BENCHTIME  ?= 15x
bench: SHELL := /bin/bash
bench: .SHELLFLAGS := -o pipefail -c
bench: build
	@mkdir -p bench/out
	$(GO) test -run='^$$' -bench=. -benchtime=$(BENCHTIME) -count=$(BENCHCOUNT) ./bench/figures | tee bench/out/figures.txt
	$(GO) run ./bench/report bench/out/figures.txt | tee bench/out/report.md
	@# CPU and memory profiles of the figure furthest from its goal (P1, cold resolution), in-process
	$(GO) test -run='^$$' -bench='ColdResolutionInProcess' -benchtime=40x -cpuprofile=bench/out/p1-cpu.out \
	  -memprofile=bench/out/p1-mem.out -o bench/out/spawn.test ./bench/figures/spawn | tee bench/out/p1.txt
	$(GO) tool pprof -top -nodecount=25 bench/out/spawn.test bench/out/p1-cpu.out | tee bench/out/p1-cpu.txt
	$(GO) tool pprof -top -nodecount=25 -sample_index=alloc_space bench/out/spawn.test bench/out/p1-mem.out | tee bench/out/p1-mem.txt
	$(GO) test -run='^$$' -bench=. -benchtime=1s -count=$(BENCHCOUNT) $$($(GO) list ./... | grep -v '/bench/figures$$') | tee bench/out/other.txt

## fuzz: run each fuzz target for FUZZTIME
fuzz:
	@set -e; for pkg in $$($(GO) list ./...); do \
	  for f in $$($(GO) test -list='^Fuzz' $$pkg 2>/dev/null | grep '^Fuzz' || true); do \
	    echo "== $$pkg $$f"; $(GO) test -run='^$$' -fuzz="^$$f$$" -fuzztime=$(FUZZTIME) $$pkg; \
	  done; done

## demo: build the examples and run them against this repository's .config/toolhost
demo: build
	@./scripts/demo.sh

clean:
	rm -rf $(BIN)
