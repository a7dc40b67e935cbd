// Package mcptest holds what the tests of the MCP faces share when they
// talk to a toolhost server as an MCP client: a client that records
// notifications/tools/list_changed and can call server/identity, and the
// text of a tool result. It is for tests only: no package but a _test.go
// file imports it (TestOnlyTestsImport).
package mcptest

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolhost/toolhost/resolver/mcpserver"
)

// NewClient returns an MCP client built with opts (nil for none) that can
// send server/identity, and a channel that receives a value for each
// notifications/tools/list_changed.
func NewClient(t testing.TB, opts *mcp.ClientOptions) (*mcp.Client, <-chan struct{}) {
	t.Helper()
	changed := make(chan struct{}, 16)
	var o mcp.ClientOptions
	if opts != nil {
		o = *opts
	}
	o.ToolListChangedHandler = func(context.Context, *mcp.ToolListChangedRequest) {
		changed <- struct{}{}
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "v0"}, &o)
	if err := mcp.AddSendingCustomMethod[*mcpserver.IdentityParams, *mcpserver.IdentityResult](c, mcpserver.MethodIdentity); err != nil {
		t.Fatal(err)
	}
	return c, changed
}

// WaitChanged waits for a list_changed notification on changed; after 10 s
// (a hang detector, not a timing assertion) the test fails.
func WaitChanged(t testing.TB, changed <-chan struct{}) {
	t.Helper()
	select {
	case <-changed:
	case <-time.After(10 * time.Second):
		t.Fatal("no notifications/tools/list_changed")
	}
}

// Text returns the text of a tool result's text content blocks, joined.
func Text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}
