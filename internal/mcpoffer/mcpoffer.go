// Package mcpoffer holds what MCP servers offer beside their tools, as
// the sources list it, the catalog's wiring joins it and the faces serve
// it: resources, resource templates and prompts, in the go-sdk's types.
//
//	off, problems := cat.Offer(ctx) // resolver.Catalog
//	for _, r := range off.Resources {
//		fmt.Println(r.URI, r.Name)
//	}
package mcpoffer

import (
	"errors"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Offer is what one server, or every server of a catalog, offers beside
// its tools: its resources, resource templates and prompts, and whether
// it completes their arguments and takes subscriptions.
type Offer struct {
	Resources []*mcp.Resource
	Templates []*mcp.ResourceTemplate
	Prompts   []*mcp.Prompt
	// Completes says the server completes the arguments of prompts and
	// resource templates (completion/complete).
	Completes bool
	// Subscribes says the server takes resources/subscribe.
	Subscribes bool
}

// ErrNotOffered is the error of a resource, prompt or completion that no
// server offers, as last listed.
var ErrNotOffered = errors.New("not offered by any MCP server")
