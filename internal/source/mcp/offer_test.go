package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func init() {
	// offer serves resources, a template, a prompt, completions and
	// subscriptions; its tool "touch" says the resource changed, and "die"
	// exits.
	fakeServers["offer"] = func() int { return serveStdio(offerServer()) }
}

func offerServer() *mcp.Server {
	var s *mcp.Server
	s = mcp.NewServer(&mcp.Implementation{Name: "offer", Version: "v1"}, &mcp.ServerOptions{
		CompletionHandler: func(_ context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
			return &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: []string{req.Params.Argument.Value + "da"}}}, nil
		},
		SubscribeHandler:   func(context.Context, *mcp.SubscribeRequest) error { return nil },
		UnsubscribeHandler: func(context.Context, *mcp.UnsubscribeRequest) error { return nil },
	})
	s.AddResource(&mcp.Resource{URI: "file:///notes.txt", Name: "notes", MIMEType: "text/plain"},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "text/plain", Text: "buy milk"}}}, nil
		})
	s.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: "note://{id}", Name: "note"},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, Text: "note " + strings.TrimPrefix(req.Params.URI, "note://")}}}, nil
		})
	s.AddPrompt(&mcp.Prompt{Name: "greet", Arguments: []*mcp.PromptArgument{{Name: "name", Required: true}}},
		func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: "Greet " + req.Params.Arguments["name"]}}}}, nil
		})
	s.AddTool(&mcp.Tool{Name: "touch", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			err := s.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: "file:///notes.txt"})
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "touched"}}}, err
		})
	s.AddTool(&mcp.Tool{Name: "die", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			os.Exit(3)
			return nil, nil
		})
	return s
}

// TestOffer: a server's resources, templates and prompts are listed,
// read, got and completed through the Source, and a subscribed
// resource's updates reach OnResourceUpdated. A server offering none of
// them has an empty Offer.
func TestOffer(t *testing.T) {
	updated := make(chan string, 1)
	s := newSource(t, fakeSpec(t, "offer", "offer"), &Options{OnResourceUpdated: func(uri string) { updated <- uri }})
	ctx := t.Context()
	o, err := s.Offer(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(o.Resources) != 1 || o.Resources[0].URI != "file:///notes.txt" || len(o.Templates) != 1 || o.Templates[0].URITemplate != "note://{id}" ||
		len(o.Prompts) != 1 || o.Prompts[0].Name != "greet" || !o.Completes || !o.Subscribes {
		t.Fatalf("Offer = %+v", o)
	}
	rr, err := s.ReadResource(ctx, "note://7")
	if err != nil || len(rr.Contents) != 1 || rr.Contents[0].Text != "note 7" {
		t.Errorf("ReadResource = %+v, %v", rr, err)
	}
	pr, err := s.GetPrompt(ctx, "greet", map[string]string{"name": "Ada"})
	if err != nil || len(pr.Messages) != 1 || pr.Messages[0].Content.(*mcp.TextContent).Text != "Greet Ada" {
		t.Errorf("GetPrompt = %+v, %v", pr, err)
	}
	cr, err := s.Complete(ctx, &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/prompt", Name: "greet"},
		Argument: mcp.CompleteParamsArgument{Name: "name", Value: "A"}})
	if err != nil || len(cr.Completion.Values) != 1 || cr.Completion.Values[0] != "Ada" {
		t.Errorf("Complete = %+v, %v", cr, err)
	}
	if err := s.Subscribe(ctx, "file:///notes.txt"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Call(ctx, "touch", nil, nil); err != nil {
		t.Fatal(err)
	}
	select {
	case uri := <-updated:
		if uri != "file:///notes.txt" {
			t.Errorf("updated %q", uri)
		}
	case <-time.After(10 * time.Second):
		t.Error("no resources/updated reached OnResourceUpdated")
	}
	if err := s.Unsubscribe(ctx, "file:///notes.txt"); err != nil {
		t.Error(err)
	}
	_, err = s.ReadResource(ctx, "file:///missing")
	var e *Error
	if !errors.As(err, &e) || e.Op != "resources/read" {
		t.Errorf("ReadResource of a missing resource = %v, want an *Error of op resources/read", err)
	}

	plain := newSource(t, fakeSpec(t, "basic", "basic"), nil)
	o, err = plain.Offer(ctx)
	if err != nil || len(o.Resources)+len(o.Templates)+len(o.Prompts) != 0 {
		t.Errorf("Offer of a server with tools only = %+v, %v", o, err)
	}
}

// TestSubscriptionOutlivesIdle: a connection holding a subscription is
// not closed for being idle, so the server's updates keep coming.
func TestSubscriptionOutlivesIdle(t *testing.T) {
	updated := make(chan string, 4)
	spec := fakeSpec(t, "offer", "offer")
	spec.IdleTimeout = 100 * time.Millisecond
	s := newSource(t, spec, &Options{OnResourceUpdated: func(uri string) { updated <- uri }})
	ctx := t.Context()
	if err := s.Subscribe(ctx, "file:///notes.txt"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(4 * spec.IdleTimeout)
	if _, err := s.Call(ctx, "touch", nil, nil); err != nil {
		t.Fatal(err)
	}
	select {
	case uri := <-updated:
		if uri != "file:///notes.txt" {
			t.Errorf("updated %q", uri)
		}
	case <-time.After(10 * time.Second):
		t.Error("no resources/updated after the idle timeout: the subscription was lost with its connection")
	}
	if n := s.Starts(); n != 1 {
		t.Errorf("%d starts, want 1: the subscribed connection was closed for being idle", n)
	}
	if err := s.Unsubscribe(ctx, "file:///notes.txt"); err != nil {
		t.Fatal(err)
	}
}

// TestSubscriptionAfterCrash: a new connection, after the server crashed,
// subscribes again to what the last one was subscribed to.
func TestSubscriptionAfterCrash(t *testing.T) {
	updated := make(chan string, 16)
	s := newSource(t, fakeSpec(t, "offer", "offer"), &Options{OnResourceUpdated: func(uri string) { updated <- uri }})
	ctx := t.Context()
	if err := s.Subscribe(ctx, "file:///notes.txt"); err != nil {
		t.Fatal(err)
	}
	_, _ = s.Call(ctx, "die", nil, nil)
	deadline := time.After(10 * time.Second)
	for {
		// The new connection subscribes in the background: touch until
		// an update comes.
		_, _ = s.Call(ctx, "touch", nil, nil)
		select {
		case <-updated:
			if n := s.Starts(); n != 2 {
				t.Errorf("%d starts, want 2", n)
			}
			return
		case <-time.After(50 * time.Millisecond):
		case <-deadline:
			t.Fatal("no resources/updated from the restarted server: the subscription was not made again")
		}
	}
}
