// Package figures measures the performance figures of the table in
// docs/performance.md, each as a ratio against a baseline measured in
// the same run, interleaved with it:
//
//	go test -run='^$' -bench=. -count=5 ./bench/figures | tee new.txt
//	TOOLHOST_BEFORE=/tmp/before/toolhost go test -run='^$' -bench=. -count=5 ./bench/figures
//
// The fixtures are generated: 40 copies of a 5-tool sdk binary
// (testdata/five) with 200 [tools.NAME] entries, and a 1000-tool sdk
// binary (testdata/many) registered as one toolset. Each figure runs the
// toolhost binary built from this tree ("after") and, when TOOLHOST_BEFORE
// names another toolhost binary, that one too ("before"), in the same
// iterations, in rotating order. Every figure reports medians in ms and the
// ratio of each variant to its baseline; no test asserts a time.
//
// Flow: go build (toolhost, five, many) → workspaces → warm-up → N × (each
// variant and baseline once) → medians → ratios.
package figures
