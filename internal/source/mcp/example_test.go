package mcp_test

import (
	"fmt"

	"github.com/toolhost/toolhost/internal/source/mcp"
)

// New checks the spec and starts nothing; a spec that cannot work is
// refused with the fix.
func ExampleNew() {
	_, err := mcp.New(mcp.Spec{Name: "fs", Command: "mcp-server-filesystem", URL: "http://localhost:3001/mcp"}, nil)
	fmt.Println(err)
	src, err := mcp.New(mcp.Spec{Name: "fs", Command: "mcp-server-filesystem", Args: []string{"/tmp"}}, &mcp.Options{CacheDir: "/tmp/cache"})
	fmt.Println(src.Name(), src.Running(), err)
	// Output:
	// mcp: server "fs" has both a command and a url: keep one
	// fs false <nil>
}
