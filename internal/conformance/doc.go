// Package conformance runs the official MCP conformance suite (npm
// @modelcontextprotocol/conformance, pinned in the repository's
// conformance/package-lock.json) against `toolhost serve --http`: its test,
// run by `make test`, builds toolhost and the tool binary
// examples/conformance, serves them with testdata/toolhost.toml on
// loopback, and runs each tool scenario of the suite against /mcp.
//
//	cd conformance && npm ci        # once: installs the suite (node ≥ 20)
//	go test ./internal/conformance  # every tool scenario, one subtest each
//	go test ./internal/conformance -run 'Conformance/tools-call-image' -v
//
// TestClientConformance runs the suite's client scenarios the other way
// round: the suite starts its own server (and authorization server) and
// runs toolhost's client mode against it (toolhost list|call --mcp URL),
// the test binary playing $BROWSER and the helpers that hand toolhost a
// scenario's credentials.
//
//	go test ./internal/conformance -run 'ClientConformance/auth/scope-step-up' -v
//
// Without node or the installed suite the tests skip, saying how to
// install it. With the environment variable CI set they fail instead.
//
// # Flow
//
// go build → toolhost serve --http 127.0.0.1:0 --allow-execute (stderr "serving … on
// http://ADDR") → node conformance server --url http://ADDR/mcp --scenario S
// → its exit status and output, per scenario.
//
// TestConformanceUpstream (upstream_test.go) runs the resources, prompts,
// completion and content scenarios against examples/upstream, an MCP server, and
// against toolhost serve --http whose only source is that server
// (testdata/upstream.toml): each passes both ways.
//
// The package has no code of its own besides this comment: everything is
// in its tests. docs/mcp.md ("Conformance") lists the scenarios
// and what passes.
package conformance
