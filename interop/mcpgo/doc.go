// Package mcpgo checks that a third-party MCP client, mark3labs/mcp-go,
// lists and calls toolhost's tools over /mcp with its default options. It
// is a module of its own so that mcp-go is a dependency of this test only,
// never of toolhost (see docs/dependencies.md); `make test` runs it.
package mcpgo
