// Package mcptest holds what the tests of the MCP faces share when they
// talk to a toolhost server as an MCP client: a client that records
// notifications/tools/list_changed and can call server/identity, and the
// text of a tool result. It is for tests only: no package but a _test.go
// file imports it (TestOnlyTestsImport).
package mcptest

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolhost/toolhost/face/mcpserver"
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

// WaitChanged waits for a list_changed notification on changed. After 10 s
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

// CloseServer closes the session of a server started as cmd, a command
// transport, so closing it closes the server's stdin. It checks that the
// server exits with status 0 within limit. limit bounds a hang. It is not
// a timing assertion. stderr is shown when the server does not exit so.
func CloseServer(t testing.TB, cs *mcp.ClientSession, cmd *exec.Cmd, stderr fmt.Stringer, limit time.Duration) {
	t.Helper()
	start := time.Now()
	if err := cs.Close(); err != nil {
		t.Errorf("Close: %v (stderr %q)", err, stderr.String())
	}
	if d := time.Since(start); d > limit {
		t.Errorf("server took %v to exit after stdin closed", d)
	}
	if cmd.ProcessState == nil || !cmd.ProcessState.Success() {
		t.Errorf("server exit: %v, want status 0 (stderr %q)", cmd.ProcessState, stderr.String())
	}
}
