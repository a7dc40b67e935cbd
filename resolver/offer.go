package resolver

import (
	"context"
	"github.com/toolhost/toolhost/catalog"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolhost/toolhost/internal/mcpoffer"
	"github.com/toolhost/toolhost/internal/source/servers"
)

// Offer is what the configuration's MCP servers offer beside their
// tools, as one: their resources, resource templates and prompts, and
// whether some server completes arguments or takes subscriptions. The
// items are the go-sdk's, as the servers list them, but for a prompt's
// name, which has its server's prefix.
type Offer = mcpoffer.Offer

// ErrNotOffered is the error of a resource, prompt or completion no
// server offers, as last listed. Test it with errors.Is.
var ErrNotOffered = mcpoffer.ErrNotOffered

// offer returns the servers' offer, made on first need.
func (c *Catalog) offer() *servers.Offers {
	c.offersOnce.Do(func() {
		var cfg = c.cfg
		if len(c.servers) > 0 && cfg == nil {
			cfg = c.config()
		}
		c.offers = servers.NewOffers(c.servers, cfg)
	})
	return c.offers
}

// Offer lists what the MCP servers offer beside their tools, each server
// started if it is not running. A resource's URI or a prompt's name
// several servers offer is kept by the first declared. A prompt's name
// has its server's prefix. The problems are the servers that could not
// be listed and the items left out. Remotes offer none.
func (c *Catalog) Offer(ctx context.Context) (*Offer, []catalog.Problem) {
	return c.offer().Offer(ctx)
}

// MayOffer reports whether the catalog has an MCP server that may offer
// resources or prompts, without starting any.
func (c *Catalog) MayOffer() bool { return c.offer().Any() }

// ReadResource reads the resource at uri from the server offering it:
// the one listing it, else the first whose resource template matches.
func (c *Catalog) ReadResource(ctx context.Context, uri string) (*mcp.ReadResourceResult, error) {
	return c.offer().ReadResource(ctx, uri)
}

// GetPrompt gets the prompt name (as [Catalog.Offer] names it) with its
// arguments from the server offering it.
func (c *Catalog) GetPrompt(ctx context.Context, name string, args map[string]string) (*mcp.GetPromptResult, error) {
	return c.offer().GetPrompt(ctx, name, args)
}

// Complete asks the server offering the prompt or resource template of
// params.Ref to complete an argument.
func (c *Catalog) Complete(ctx context.Context, params *mcp.CompleteParams) (*mcp.CompleteResult, error) {
	return c.offer().Complete(ctx, params)
}

// SubscribeResource asks the server offering the resource at uri for its
// updates, which reach [Catalog.WatchOffer]'s updated. While it lasts,
// the server is not stopped for being idle, and a server started again
// after a crash is subscribed again.
func (c *Catalog) SubscribeResource(ctx context.Context, uri string) error {
	return c.offer().Subscribe(ctx, uri)
}

// WatchOffer registers changed to run when a server says its resources
// or prompts changed, and updated when a subscribed resource changed.
// Either may be nil. A server's notes arrive once [Catalog.Offer] listed
// it. Both run on the server's connection: they must not block, nor ask
// the server anything. The returned function ends the watch.
func (c *Catalog) WatchOffer(changed func(), updated func(uri string)) func() {
	return c.offer().Watch(changed, updated)
}
