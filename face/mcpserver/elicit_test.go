package mcpserver_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/face/mcpserver"
	"github.com/toolhost/toolhost/resolver"
	"github.com/toolhost/toolhost/tool"
)

// newAskCatalog registers dynamic tools that ask questions, one at a
// time, reading the answers so far from catalog.Answers: the catalog's
// question loop answers them (pre-supplied answers, then Ask, then the
// question's default, else the needs_input outcome itself).
func newAskCatalog(t *testing.T) *resolver.Catalog {
	t.Helper()
	cat, err := resolver.New(t.Context(), nil, &resolver.Options{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	qs := map[string][]tool.Question{
		"confirm": {{ID: "overwrite", Text: "Overwrite a.txt?", AnswerType: tool.Boolean, Default: false}},
		"name":    {{ID: "who", Text: "Whom to greet?", AnswerType: tool.Text}},
		"two": {
			{ID: "colour", Text: "Which colour?", AnswerType: tool.Select("red", "blue")},
			{ID: "sure", Text: "Sure?", AnswerType: tool.Boolean},
		},
	}
	// deaf does not read the answers: it asks whatever it is given.
	if err := cat.Register(catalog.Definition{Name: "deaf", Summary: "Asks forever."},
		func(context.Context, map[string]any) (tool.Outcome, error) {
			return tool.Ask(tool.Question{ID: "again", Text: "Again?", AnswerType: tool.Boolean}), nil
		}); err != nil {
		t.Fatal(err)
	}
	for name, questions := range qs {
		if err := cat.Register(catalog.Definition{Name: name, Summary: "Asks."},
			func(ctx context.Context, _ map[string]any) (tool.Outcome, error) {
				answers := catalog.Answers(ctx)
				var got []string
				for _, q := range questions {
					a, ok := answers[q.ID]
					if !ok {
						return tool.Ask(q), nil
					}
					got = append(got, fmt.Sprintf("%s=%v", q.ID, a))
				}
				return tool.Success(strings.Join(got, " ")), nil
			}); err != nil {
			t.Fatal(err)
		}
	}
	return cat
}

// TestElicitation checks the needs_input mapping: elicitation where the
// client supports it (in both protocol generations: elicitation/create
// before 2026-07-28, input requests after), else the question's default,
// else isError with the question's text.
func TestElicitation(t *testing.T) {
	answer := func(action string) func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		return func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			if action != "accept" {
				return &mcp.ElicitResult{Action: action}, nil
			}
			props := req.Params.RequestedSchema.(map[string]any)["properties"].(map[string]any)
			content := map[string]any{}
			for id, p := range props {
				switch p := p.(map[string]any); p["type"] {
				case "boolean":
					content[id] = true
				default:
					if enum, ok := p["enum"].([]any); ok {
						content[id] = enum[len(enum)-1]
					} else {
						content[id] = "Ada"
					}
				}
			}
			return &mcp.ElicitResult{Action: "accept", Content: content}, nil
		}
	}
	tests := []struct {
		name    string
		handler func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) // nil: no elicitation capability
		tool    string
		isError bool
		want    string
	}{
		{"elicited boolean", answer("accept"), "confirm", false, "overwrite=true"},
		{"elicited text", answer("accept"), "name", false, "who=Ada"},
		{"two questions", answer("accept"), "two", false, "colour=blue sure=true"},
		{"declined", answer("decline"), "confirm", true, "the user did not answer (decline): Overwrite a.txt?"},
		{"cancelled", answer("cancel"), "name", true, "the user did not answer (cancel): Whom to greet?"},
		{"no elicitation: default", nil, "confirm", false, "overwrite=false"},
		{"no elicitation, no default", nil, "name", true, "Whom to greet?\n\n(tool \"name\" needs an answer to this question (id \"who\"; answer: a text), and this client cannot ask the user"},
		{"asked again", answer("accept"), "deaf", true, `tool "deaf" asked "Again?" (id "again") again after it was answered: it does not read tool.answers`},
	}
	for _, transport := range []string{"memory", "http"} {
		for _, version := range []string{"", "2025-11-25"} {
			for _, tt := range tests {
				t.Run(fmt.Sprintf("%s/version=%s/%s", transport, version, tt.name), func(t *testing.T) {
					c, _ := newClient(t, &mcp.ClientOptions{ElicitationHandler: tt.handler})
					s := mcpserver.New(newAskCatalog(t), &mcpserver.Options{AllowHTTPExecute: true})
					var cs *mcp.ClientSession
					if transport == "http" {
						cs = connectHTTP(t, s, c, &mcp.ClientSessionOptions{ProtocolVersion: version})
					} else {
						cs = connect(t, s, c, &mcp.ClientSessionOptions{ProtocolVersion: version})
					}
					res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: tt.tool, Arguments: map[string]any{}})
					if err != nil {
						t.Fatalf("CallTool: %v", err)
					}
					if got := text(res); res.IsError != tt.isError || !strings.Contains(got, tt.want) {
						t.Errorf("result = %q (isError %v), want %q (isError %v)", got, res.IsError, tt.want, tt.isError)
					}
				})
			}
		}
	}
}
