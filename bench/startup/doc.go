// Package startup measures what the sdk adds to a tool binary's start-up:
// BenchmarkStartup builds examples/greet, a plain Go program that prints a
// fixed JSON line, and a plain Go program that decodes the request and
// encodes its answer with encoding/json; it runs each once per iteration
// (interleaved) answering a "schema" request, and reports the medians and
// the ratios sdk/base and sdk/json.
//
//	go test -run='^$' -bench=Startup -benchtime=200x ./bench/startup
//
// Flow: go build (greet, baselines) → N × (run each) → medians → ratios.
package startup
