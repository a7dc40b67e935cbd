// Command upstream is an MCP server, written with the go-sdk, that offers
// what the official MCP conformance suite (npm
// @modelcontextprotocol/conformance) reads in its resources, prompts and
// completion scenarios: the resources test://static-text,
// test://static-binary and test://watched-resource, the template
// test://template/{id}/data, four prompts, completions and
// subscriptions, and the tools of its content scenarios (text, image,
// audio, an embedded resource, all three). It also offers an MCP App: the tool show_widget, whose
// _meta names the resource ui://widget/panel.html. It serves on stdin and
// stdout, as an upstream server of toolhost. internal/conformance runs
// the suite against `toolhost serve --http` whose only source is it.
//
//	[mcp_servers.upstream]
//	command = "bin/upstream"
//
// With -http ADDR it serves streamable HTTP on ADDR instead, for the
// suite to read it directly.
package main

import (
	"context"
	"encoding/base64"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// png is a 1×1 transparent PNG.
var png, _ = base64.StdEncoding.DecodeString("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==")

// wav is a WAV file's header, without samples.
var wav, _ = base64.StdEncoding.DecodeString("UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQAAAAA=")

// widget is the MCP App's page.
const widget = `<!doctype html><title>panel</title><p id="out">waiting for the tool's result</p>`

func main() {
	addr := flag.String("http", "", "serve streamable HTTP on `ADDR` rather than stdio")
	flag.Parse()
	if *addr == "" {
		if err := newServer().Run(context.Background(), &mcp.StdioTransport{}); err != nil {
			log.Fatal(err)
		}
		return
	}
	l, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Fprintf(os.Stderr, "serving on http://%s\n", l.Addr())
	s := newServer()
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)
	log.Fatal(http.Serve(l, h))
}

// newServer returns the server with everything it offers.
func newServer() *mcp.Server {
	var s *mcp.Server
	// A subscription is told once, soon after, that its resource changed.
	subscribed := func(_ context.Context, req *mcp.SubscribeRequest) error {
		uri := req.Params.URI
		go func() {
			time.Sleep(50 * time.Millisecond)
			_ = s.ResourceUpdated(context.Background(), &mcp.ResourceUpdatedNotificationParams{URI: uri})
		}()
		return nil
	}
	s = mcp.NewServer(&mcp.Implementation{Name: "upstream", Version: "1.0.0"}, &mcp.ServerOptions{
		CompletionHandler:  complete,
		SubscribeHandler:   subscribed,
		UnsubscribeHandler: func(context.Context, *mcp.UnsubscribeRequest) error { return nil },
	})
	text := func(uri, mime, body string) mcp.ResourceHandler {
		return func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: mime, Text: body}}}, nil
		}
	}
	s.AddResource(&mcp.Resource{URI: "test://static-text", Name: "static-text", Description: "A static text resource", MIMEType: "text/plain"},
		text("test://static-text", "text/plain", "This is the content of the static text resource."))
	s.AddResource(&mcp.Resource{URI: "test://static-binary", Name: "static-binary", Description: "A static binary resource", MIMEType: "image/png"},
		func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "test://static-binary", MIMEType: "image/png", Blob: png}}}, nil
		})
	s.AddResource(&mcp.Resource{URI: "test://watched-resource", Name: "watched-resource", Description: "A resource to subscribe to", MIMEType: "text/plain"},
		text("test://watched-resource", "text/plain", "Watched resource content."))
	s.AddResource(&mcp.Resource{URI: "ui://widget/panel.html", Name: "panel", Description: "The show_widget tool's app", MIMEType: "text/html;profile=mcp-app"},
		text("ui://widget/panel.html", "text/html;profile=mcp-app", widget))
	s.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: "test://template/{id}/data", Name: "template", Description: "A resource template with an id", MIMEType: "application/json"},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			id := strings.TrimSuffix(strings.TrimPrefix(req.Params.URI, "test://template/"), "/data")
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "application/json",
				Text: fmt.Sprintf(`{"id":%q,"templateTest":true,"data":"Data for ID: %s"}`, id, id)}}}, nil
		})
	prompt := func(msgs ...*mcp.PromptMessage) *mcp.GetPromptResult { return &mcp.GetPromptResult{Messages: msgs} }
	user := func(c mcp.Content) *mcp.PromptMessage { return &mcp.PromptMessage{Role: "user", Content: c} }
	s.AddPrompt(&mcp.Prompt{Name: "test_simple_prompt", Description: "A simple prompt without arguments"},
		func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return prompt(user(&mcp.TextContent{Text: "This is a simple prompt for testing."})), nil
		})
	s.AddPrompt(&mcp.Prompt{Name: "test_prompt_with_arguments", Description: "A prompt with required arguments",
		Arguments: []*mcp.PromptArgument{{Name: "arg1", Description: "First test argument", Required: true}, {Name: "arg2", Description: "Second test argument", Required: true}}},
		func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			a := req.Params.Arguments
			return prompt(user(&mcp.TextContent{Text: fmt.Sprintf("Prompt with arguments: arg1='%s', arg2='%s'", a["arg1"], a["arg2"])})), nil
		})
	s.AddPrompt(&mcp.Prompt{Name: "test_prompt_with_embedded_resource", Description: "A prompt that embeds a resource",
		Arguments: []*mcp.PromptArgument{{Name: "resourceUri", Description: "URI of the resource to embed", Required: true}}},
		func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			uri := req.Params.Arguments["resourceUri"]
			return prompt(
				user(&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: uri, MIMEType: "text/plain", Text: "Embedded resource content for testing."}}),
				user(&mcp.TextContent{Text: "Please process the embedded resource above."})), nil
		})
	s.AddPrompt(&mcp.Prompt{Name: "test_prompt_with_image", Description: "A prompt with an image"},
		func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return prompt(user(&mcp.ImageContent{Data: png, MIMEType: "image/png"}), user(&mcp.TextContent{Text: "Please analyze the image above."})), nil
		})
	s.AddTool(&mcp.Tool{Name: "show_widget", Description: "Shows a panel in the client",
		InputSchema: map[string]any{"type": "object"},
		Meta:        mcp.Meta{"ui": map[string]any{"resourceUri": "ui://widget/panel.html"}}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "the panel shows"}}}, nil
		})
	// The tools of the suite's content scenarios: each result's content
	// blocks pass through toolhost whole.
	content := func(name, desc string, blocks ...mcp.Content) {
		s.AddTool(&mcp.Tool{Name: name, Description: desc, InputSchema: map[string]any{"type": "object"}},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{Content: blocks}, nil
			})
	}
	embedded := &mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "test://embedded-resource", MIMEType: "text/plain",
		Text: "This is an embedded resource content."}}
	content("test_simple_text", "Returns text", &mcp.TextContent{Text: "This is a simple text response for testing."})
	content("test_image_content", "Returns an image", &mcp.ImageContent{Data: png, MIMEType: "image/png"})
	content("test_audio_content", "Returns audio", &mcp.AudioContent{Data: wav, MIMEType: "audio/wav"})
	content("test_embedded_resource", "Returns an embedded resource", embedded)
	content("test_multiple_content_types", "Returns text, an image and a resource",
		&mcp.TextContent{Text: "Multiple content types test:"}, &mcp.ImageContent{Data: png, MIMEType: "image/png"}, embedded)
	s.AddTool(&mcp.Tool{Name: "add_note", Description: "Adds the resource test://note, so that the server's resources change",
		InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			s.AddResource(&mcp.Resource{URI: "test://note", Name: "note", MIMEType: "text/plain"}, text("test://note", "text/plain", "a note"))
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "added test://note"}}}, nil
		})
	return s
}

// complete offers the values of an argument that start as its value does.
func complete(_ context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
	all := []string{"paris", "park", "test", "testing"}
	var values []string
	for _, v := range all {
		if strings.HasPrefix(v, req.Params.Argument.Value) {
			values = append(values, v)
		}
	}
	return &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: values, Total: len(values)}}, nil
}
