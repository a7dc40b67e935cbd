// Package startup measures what the sdk adds to a tool binary's start-up:
// BenchmarkStartup builds examples/greet and a plain Go program that prints a
// fixed JSON line, runs each once per iteration (interleaved) answering a
// "schema" request, and reports the medians and their ratio.
//
//	go test -run='^$' -bench=Startup -benchtime=200x ./bench/startup
//
// Flow: go build (greet, baseline) → N × (run greet, run baseline) → medians → ratio.
package startup
