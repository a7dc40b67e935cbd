package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolhost/toolhost/internal/mcpoffer"
)

// Offer is what a server offers beside its tools (package
// internal/mcpoffer).
type Offer = mcpoffer.Offer

// Offer lists what the server offers beside its tools, every page of
// each list, bounded as a tool listing is (at most [MaxTools] items and
// [MaxListingBytes] of definitions each). A server that declares none of
// these capabilities has an empty Offer; the server is started when it
// is not running.
func (s *Source) Offer(ctx context.Context) (*Offer, error) {
	ctx, cancel := context.WithTimeoutCause(ctx, s.spec.CallTimeout, errCallTimeout)
	defer cancel()
	c, _, err := s.acquire(ctx, "offer", "")
	if err != nil {
		return nil, err
	}
	defer s.release(c, true)
	o := &Offer{}
	caps := &mcp.ServerCapabilities{}
	if res := c.cs.InitializeResult(); res != nil && res.Capabilities != nil {
		caps = res.Capabilities
	}
	o.Completes = caps.Completions != nil
	if caps.Resources != nil {
		o.Subscribes = caps.Resources.Subscribe
		if o.Resources, err = pages(s, "resources/list", func(cursor string) ([]*mcp.Resource, string, error) {
			res, err := c.cs.ListResources(ctx, &mcp.ListResourcesParams{Cursor: cursor})
			if err != nil {
				return nil, "", s.opError(ctx, c, "resources/list", "", err)
			}
			return res.Resources, res.NextCursor, nil
		}); err != nil {
			return nil, err
		}
		if o.Templates, err = pages(s, "resources/templates/list", func(cursor string) ([]*mcp.ResourceTemplate, string, error) {
			res, err := c.cs.ListResourceTemplates(ctx, &mcp.ListResourceTemplatesParams{Cursor: cursor})
			if err != nil {
				return nil, "", s.opError(ctx, c, "resources/templates/list", "", err)
			}
			return res.ResourceTemplates, res.NextCursor, nil
		}); err != nil {
			return nil, err
		}
	}
	if caps.Prompts != nil {
		if o.Prompts, err = pages(s, "prompts/list", func(cursor string) ([]*mcp.Prompt, string, error) {
			res, err := c.cs.ListPrompts(ctx, &mcp.ListPromptsParams{Cursor: cursor})
			if err != nil {
				return nil, "", s.opError(ctx, c, "prompts/list", "", err)
			}
			return res.Prompts, res.NextCursor, nil
		}); err != nil {
			return nil, err
		}
	}
	return o, nil
}

// pages reads every page of one list, bounded as a tool listing is.
func pages[T any](s *Source, op string, page func(cursor string) ([]T, string, error)) ([]T, error) {
	var all []T
	size := 0
	cursor := ""
	for n := 0; ; n++ {
		if n == maxPages {
			return nil, &Error{Source: s.spec.Name, Op: op, Err: fmt.Errorf("%w: %s returned more than %d pages", ErrRefused, op, maxPages),
				Fix: "the server's pagination does not end: report it to its authors"}
		}
		items, next, err := page(cursor)
		if err != nil {
			return nil, err
		}
		if len(all)+len(items) > MaxTools {
			return nil, s.tooLarge(fmt.Sprintf("%s lists more than %d items", op, MaxTools))
		}
		for _, it := range items {
			raw, _ := json.Marshal(it)
			if size += len(raw); size > MaxListingBytes {
				return nil, s.tooLarge(fmt.Sprintf("%s's items are more than %d MiB", op, MaxListingBytes>>20))
			}
		}
		all = append(all, items...)
		if next == "" || next == cursor {
			return all, nil
		}
		cursor = next
	}
}

// ReadResource reads one resource of the server by its URI.
func (s *Source) ReadResource(ctx context.Context, uri string) (*mcp.ReadResourceResult, error) {
	return request(s, ctx, "resources/read", uri, func(c *conn) (*mcp.ReadResourceResult, error) {
		return c.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
	})
}

// GetPrompt gets one prompt of the server, with its arguments.
func (s *Source) GetPrompt(ctx context.Context, name string, args map[string]string) (*mcp.GetPromptResult, error) {
	return request(s, ctx, "prompts/get", name, func(c *conn) (*mcp.GetPromptResult, error) {
		return c.cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: name, Arguments: args})
	})
}

// Complete asks the server to complete an argument of one of its prompts
// or resource templates.
func (s *Source) Complete(ctx context.Context, params *mcp.CompleteParams) (*mcp.CompleteResult, error) {
	return request(s, ctx, "completion/complete", "", func(c *conn) (*mcp.CompleteResult, error) {
		return c.cs.Complete(ctx, params)
	})
}

// Subscribe asks the server for notifications of changes to the resource
// at uri; they reach [Options].OnResourceUpdated. While a subscription
// lasts, the connection is not closed for being idle, and a new
// connection (after a crash) subscribes again.
func (s *Source) Subscribe(ctx context.Context, uri string) error {
	_, err := request(s, ctx, "resources/subscribe", uri, func(c *conn) (struct{}, error) {
		return struct{}{}, c.cs.Subscribe(ctx, &mcp.SubscribeParams{URI: uri})
	})
	if err == nil {
		s.mu.Lock()
		if s.subs == nil {
			s.subs = map[string]bool{}
		}
		s.subs[uri] = true
		s.mu.Unlock()
	}
	return err
}

// Unsubscribe ends a [Source.Subscribe].
func (s *Source) Unsubscribe(ctx context.Context, uri string) error {
	_, err := request(s, ctx, "resources/unsubscribe", uri, func(c *conn) (struct{}, error) {
		return struct{}{}, c.cs.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: uri})
	})
	if err == nil {
		s.mu.Lock()
		delete(s.subs, uri)
		s.mu.Unlock()
	}
	return err
}

// resubscribe subscribes a new connection to the resources subscribed
// to before, in the background: the connection is not in place yet.
func (s *Source) resubscribe() {
	s.mu.Lock()
	uris := slices.Sorted(maps.Keys(s.subs))
	if len(uris) == 0 || s.closed {
		s.mu.Unlock()
		return
	}
	s.bg.Add(1)
	s.mu.Unlock()
	go func() {
		defer s.bg.Done()
		for _, uri := range uris {
			_ = s.Subscribe(context.Background(), uri) // a failure leaves it to the next connection
		}
	}()
}

// request makes one request of the server within the call timeout. what
// names the resource or prompt in errors.
func request[T any](s *Source, ctx context.Context, op, what string, do func(c *conn) (T, error)) (T, error) {
	var zero T
	ctx, cancel := context.WithTimeoutCause(ctx, s.spec.CallTimeout, errCallTimeout)
	defer cancel()
	c, _, err := s.acquire(ctx, op, what)
	if err != nil {
		return zero, err
	}
	res, err := do(c)
	s.release(c, err == nil)
	if err != nil {
		return zero, s.opError(ctx, c, op, what, err)
	}
	return res, nil
}
