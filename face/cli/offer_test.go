package cli

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// "mcp-offer" is an MCP server over stdio offering the resource
// test://note (text), test://dot (a PNG), the template test://item/{id}
// and the prompt greet(who, [tone]). Its texts carry $FAKE_MARK.
func init() {
	fakeTools["mcp-offer"] = func() int {
		mark := os.Getenv("FAKE_MARK")
		s := mcp.NewServer(&mcp.Implementation{Name: "offer", Version: "0"}, nil)
		read := func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			rc := &mcp.ResourceContents{URI: req.Params.URI, MIMEType: "text/plain", Text: "contents of " + req.Params.URI + mark}
			if req.Params.URI == "test://dot" {
				rc = &mcp.ResourceContents{URI: req.Params.URI, MIMEType: "image/png", Blob: []byte("\x89PNG")}
			}
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{rc}}, nil
		}
		s.AddResource(&mcp.Resource{URI: "test://note", Name: "note" + mark, Description: "A note." + mark + " More."}, read)
		s.AddResource(&mcp.Resource{URI: "test://dot", Name: "dot", MIMEType: "image/png"}, read)
		s.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: "test://item/{id}", Name: "item", Description: "An item."}, read)
		s.AddPrompt(&mcp.Prompt{Name: "greet", Description: "Greets." + mark,
			Arguments: []*mcp.PromptArgument{{Name: "who", Required: true}, {Name: "tone"}}},
			func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
				return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{
					{Role: "user", Content: &mcp.TextContent{Text: "Greet " + req.Params.Arguments["who"] + mark}},
					{Role: "assistant", Content: &mcp.ImageContent{Data: []byte("png"), MIMEType: "image/png"}},
				}}, nil
			})
		if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
			fmt.Fprintln(os.Stderr, "fake server:", err)
			return 1
		}
		return 0
	}
}

// TestResourcesAndPrompts runs resources, resources read, prompts and
// prompts get against a configured MCP server.
func TestResourcesAndPrompts(t *testing.T) {
	ownCache(t)
	dir := workspace(t, "[mcp_servers.o]\ncommand = [{{exe}}, \"mcp-offer\"]\nsandbox = false\nprefix = \"o_\"\n")
	tests := []struct {
		args           []string
		code           int
		stdout, stderr string
	}{
		{[]string{"resources"}, 0, "URI               NAME  DESCRIPTION\n" +
			"test://dot        dot\n" +
			"test://note       note  A note.\n" +
			"test://item/{id}  item  An item.\n", ""},
		{[]string{"resources", "--json"}, 0, `{
  "resources": [
    {
      "mimeType": "image/png",
      "name": "dot",
      "uri": "test://dot"
    },
    {
      "description": "A note. More.",
      "name": "note",
      "uri": "test://note"
    }
  ],
  "resourceTemplates": [
    {
      "description": "An item.",
      "name": "item",
      "uriTemplate": "test://item/{id}"
    }
  ]
}
`, ""},
		{[]string{"resources", "read", "test://item/7"}, 0, "contents of test://item/7\n", ""},
		{[]string{"resources", "read", "test://dot"}, 0, "\x89PNG", ""},
		{[]string{"resources", "read", "test://dot", "--json"}, 0, `{
  "contents": [
    {
      "uri": "test://dot",
      "mimeType": "image/png",
      "blob": "iVBORw=="
    }
  ]
}
`, ""},
		{[]string{"resources", "read", "test://nowhere"}, 2, "",
			"toolhost: resources read: resource \"test://nowhere\": not offered by any MCP server (as last listed)\n"},
		{[]string{"prompts"}, 0, "NAME     ARGUMENTS   DESCRIPTION\no_greet  who [tone]  Greets.\n", ""},
		{[]string{"prompts", "get", "o_greet", "who=Ada"}, 0, "user: Greet Ada\nassistant: [image: 3 bytes of image/png]\n", ""},
		{[]string{"prompts", "get", "o_greet", "Ada"}, 2, "", "toolhost: \"Ada\": give each argument as NAME=VALUE\nRun 'toolhost prompts get --help' for usage.\n"},
		{[]string{"prompts", "get", "greet"}, 2, "", "toolhost: prompts get: prompt \"greet\": not offered by any MCP server (as last listed)\n"},
	}
	for _, tt := range tests {
		r := runIn(t, dir, "", nil, append([]string{"--no-cache"}, tt.args...)...)
		stderr := withoutProgress(r.stderr)
		if r.code != tt.code || r.stdout != tt.stdout || (tt.stderr != "" && !strings.HasPrefix(stderr, tt.stderr)) {
			t.Errorf("%v: exit %d\nstdout %q\nstderr %q\nwant exit %d\nstdout %q\nstderr %q", tt.args, r.code, r.stdout, stderr, tt.code, tt.stdout, tt.stderr)
		}
	}
}

// TestCheckOfferWarnings: check warns of a resource or prompt a server
// offers under a URI or name another declared first has.
func TestCheckOfferWarnings(t *testing.T) {
	ownCache(t)
	dir := workspace(t, "[mcp_servers.o]\ncommand = [{{exe}}, \"mcp-offer\"]\nsandbox = false\n\n"+
		"[mcp_servers.p]\ncommand = [{{exe}}, \"mcp-offer\"]\nsandbox = false\nprefix = \"p_\"\n")
	r := runIn(t, dir, "", nil, "--no-cache", "check")
	for _, want := range []string{
		`tools.toml:5: mcp.p: resource "test://dot" is offered by mcp.o too, declared first: mcp.p's is left out`,
		`tools.toml:5: mcp.p: resource template "test://item/{id}" is offered by mcp.o too, declared first: mcp.p's is left out`,
		"fix: to serve mcp.p's, disable mcp.o or declare mcp.p first",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("check: exit %d, want %q in\n%s%s", r.code, want, r.stdout, r.stderr)
		}
	}
	if strings.Contains(r.stdout, `prompt "greet"`) {
		t.Errorf("check warns of the prompts, which p's prefix tells apart:\n%s", r.stdout)
	}
}
