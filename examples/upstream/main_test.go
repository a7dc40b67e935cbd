package main

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestServer reads what the conformance scenarios read, without node:
// the template's id in its contents, the completions of a prefix, and a
// subscription's one update.
func TestServer(t *testing.T) {
	updated := make(chan string, 1)
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) { updated <- req.Params.URI },
	})
	st, ct := mcp.NewInMemoryTransports()
	ss, err := newServer().Connect(t.Context(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := c.Connect(t.Context(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	res, err := cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: "test://template/123/data"})
	if want := `{"id":"123","templateTest":true,"data":"Data for ID: 123"}`; err != nil || res.Contents[0].Text != want {
		t.Errorf("template read: %v, %v; want %s", res, err, want)
	}
	comp, err := cs.Complete(t.Context(), &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/prompt", Name: "test_prompt_with_arguments"},
		Argument: mcp.CompleteParamsArgument{Name: "arg1", Value: "test"}})
	if want := []string{"test", "testing"}; err != nil || !reflect.DeepEqual(comp.Completion.Values, want) {
		t.Errorf("complete: %v, %v; want %q", comp, err, want)
	}
	tools, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range tools.Tools {
		if tl.Name == "show_widget" && !reflect.DeepEqual(tl.Meta, mcp.Meta{"ui": map[string]any{"resourceUri": "ui://widget/panel.html"}}) {
			t.Errorf("show_widget's _meta = %v", tl.Meta)
		}
	}
	if err := cs.Subscribe(t.Context(), &mcp.SubscribeParams{URI: "test://watched-resource"}); err != nil {
		t.Fatal(err)
	}
	select {
	case uri := <-updated:
		if uri != "test://watched-resource" {
			t.Errorf("updated %q", uri)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no notifications/resources/updated after the subscription")
	}
}
