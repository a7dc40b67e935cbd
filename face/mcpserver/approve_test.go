package mcpserver_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/face/mcpserver"
	"github.com/toolhost/toolhost/internal/invoke/faketool"
	"github.com/toolhost/toolhost/resolver"
)

// touchServer serves t, faketool's "touch" appending a line to the
// returned marker on each run, with the extra TOML lines policy.
func touchServer(t *testing.T, policy string) (*mcpserver.Server, string) {
	t.Helper()
	marker := filepath.Join(t.TempDir(), "marker")
	cfg, err := config.Parse("test.toml", []byte(fmt.Sprintf("[tools.t]\ncommand = %s\ntool = \"touch\"\n%s\n", faketool.TOML(t, "touch", marker), policy)))
	if err != nil {
		t.Fatal(err)
	}
	cat, err := resolver.New(t.Context(), cfg, &resolver.Options{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if err := cat.Report().Err(); err != nil {
		t.Fatal(err)
	}
	s := mcpserver.New(cat, &mcpserver.Options{AllowHTTPExecute: true})
	t.Cleanup(func() { s.Close() })
	return s, marker
}

// TestApprovalElicitation: a tool with run = "ask" runs only once the
// person approves the call, in an elicitation form before 2026-07-28 and
// an input request since (the SDK's client answers both with its
// elicitation handler), shown the call as the tool renders it. Declined,
// cancelled, or a client that cannot elicit: no process starts; nothing
// the model sends (an argument, _meta) approves.
func TestApprovalElicitation(t *testing.T) {
	type form struct {
		action  string
		approve any // the form's approve field; nil: absent
	}
	tests := []struct {
		name    string
		policy  string
		forms   []form // the elicitation handler's answers, in turn; nil: no elicitation capability
		args    map[string]any
		meta    mcp.Meta
		isError bool
		want    string
		runs    []string
		asked   int
	}{
		{"approved", `run = "ask"`, []form{{"accept", true}}, nil, nil, false, "appended hi", []string{"ran hi"}, 1},
		{"requires_approval", `requires_approval = true`, []form{{"accept", true}}, nil, nil, false, "appended hi", []string{"ran hi"}, 1},
		{"accepted without approving", `run = "ask"`, []form{{"accept", false}}, nil, nil, true, `the user declined to run tool "t"; it did not run`, nil, 1},
		{"declined", "run = \"ask\"\ncancellation_response = \"Not now: ask the user why.\"", []form{{"decline", nil}}, nil, nil, true, "Not now: ask the user why.", nil, 1},
		{"cancelled", `run = "ask"`, []form{{"cancel", nil}}, nil, nil, true, `the user declined to run tool "t"; it did not run`, nil, 1},
		{"approved, then a question", `run = "ask"`, []form{{"accept", true}, {"accept", true}}, map[string]any{"ask": true}, nil, false, "appended hi", []string{"ran hi"}, 2},
		{"client cannot elicit", `run = "ask"`, nil, nil, nil, true,
			"tool \"t\" runs only once a person approves the call, and this client cannot ask one: it does not support MCP elicitation. Nothing ran. " +
				"Tell the user: they can approve it in a client that supports elicitation, or run it themselves with `toolhost call t` on a terminal.", nil, 0},
		{"the model's argument and _meta never approve", `run = "ask"`, nil, map[string]any{"approved": true},
			mcp.Meta{"approved": true, "approval": true, "io.toolhost/approval": "yes"}, true,
			"tool \"t\" runs only once a person approves the call, and this client cannot ask one", nil, 0},
		{"unattended needs no client", `run = "unattended"`, nil, nil, nil, false, "appended hi", []string{"ran hi"}, 0},
	}
	for _, transport := range []string{"memory", "http"} {
		for _, version := range []string{"2025-11-25", ""} {
			for _, tt := range tests {
				t.Run(fmt.Sprintf("%s/version=%s/%s", transport, version, tt.name), func(t *testing.T) {
					t.Parallel() // each case has its own server, tool and workspace
					s, marker := touchServer(t, tt.policy)
					var mu sync.Mutex
					var asked []*mcp.ElicitParams
					var opts mcp.ClientOptions
					if tt.forms != nil {
						opts.ElicitationHandler = func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
							mu.Lock()
							defer mu.Unlock()
							asked = append(asked, req.Params)
							f := tt.forms[min(len(asked), len(tt.forms))-1]
							res := &mcp.ElicitResult{Action: f.action}
							if f.action == "accept" {
								res.Content = map[string]any{}
								for k := range req.Params.RequestedSchema.(map[string]any)["properties"].(map[string]any) {
									res.Content[k] = f.approve
								}
							}
							return res, nil
						}
					}
					c, _ := newClient(t, &opts)
					var cs *mcp.ClientSession
					if transport == "http" {
						cs = connectHTTP(t, s, c, &mcp.ClientSessionOptions{ProtocolVersion: version})
					} else {
						cs = connect(t, s, c, &mcp.ClientSessionOptions{ProtocolVersion: version})
					}
					args := tt.args
					if args == nil {
						args = map[string]any{}
					}
					res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "t", Arguments: args, Meta: maps.Clone(tt.meta)}) // the SDK adds to _meta
					if err != nil {
						t.Fatalf("CallTool: %v", err)
					}
					if got := text(res); res.IsError != tt.isError || !strings.HasPrefix(got, tt.want) {
						t.Errorf("result = %q (isError %v), want %q (isError %v)", got, res.IsError, tt.want, tt.isError)
					}
					if runs := faketool.Runs(t, marker); !reflect.DeepEqual(runs, tt.runs) {
						t.Errorf("the tool ran %q, want %q", runs, tt.runs)
					}
					mu.Lock()
					defer mu.Unlock()
					if len(asked) != tt.asked {
						t.Fatalf("%d elicitations, want %d", len(asked), tt.asked)
					}
					if len(asked) > 0 {
						p := asked[0]
						want := fmt.Sprintf("Run tool \"t\"? It runs only once you approve this call:\n\nappend %q to %s", "hi", marker)
						field := p.RequestedSchema.(map[string]any)["properties"].(map[string]any)["approve"]
						if p.Message != want || !reflect.DeepEqual(field, map[string]any{"type": "boolean", "title": "Run it", "default": false}) {
							t.Errorf("approval form: message %q, field %v; want %q and a boolean approve, false by default", p.Message, field, want)
						}
					}
				})
			}
		}
	}
}

// TestApprovalRoundTrip drives the 2026-07-28 multi round-trip by hand: the
// approval comes back as an input request with a sealed state; only that
// state, answered, runs the call, once: a replay, a response without the
// state, or the state with other arguments is refused, and nothing more
// runs.
func TestApprovalRoundTrip(t *testing.T) {
	s, marker := touchServer(t, `run = "ask"`)
	c, _ := newClient(t, &mcp.ClientOptions{
		MultiRoundTrip:     &mcp.MultiRoundTripOptions{Disabled: true},
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) { panic("not called") },
	})
	cs := connect(t, s, c, nil)
	call := func(args map[string]any, state string, responses mcp.InputResponseMap) (*mcp.CallToolResult, error) {
		return cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "t", Arguments: args, RequestState: state, InputResponses: responses})
	}
	args := map[string]any{"text": "yo"}
	first, err := call(args, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	form, ok := first.InputRequests["approval"].(*mcp.ElicitParams)
	if !ok || first.RequestState == "" || !strings.HasSuffix(form.Message, fmt.Sprintf("append %q to %s", "yo", marker)) {
		t.Fatalf("first round = %+v, want the approval form and a state", first)
	}
	yes := mcp.InputResponseMap{"approval": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}}
	spent := "requestState already used or expired: an approval counts for one call"
	invalid := "invalid requestState: this server did not issue it for this tool and these arguments " +
		"(a restarted server forgets the states it issued)"
	steps := []struct {
		name      string
		args      map[string]any
		state     string
		responses mcp.InputResponseMap
		want      string // the result's text, or the protocol error's message
		runs      int
	}{
		{"a response without the state", args, "", yes, invalid, 0},
		{"the state with other arguments", map[string]any{"text": "other"}, first.RequestState, yes, invalid, 0},
		{"approved", args, first.RequestState, yes, "appended yo", 1},
		{"replayed", args, first.RequestState, yes, spent, 1},
	}
	for _, st := range steps {
		res, err := call(st.args, st.state, st.responses)
		got := ""
		if err != nil {
			got = err.Error() // "calling "tools/call": " and the server's message
			if strings.HasSuffix(got, st.want) {
				got = st.want
			}
			var werr *jsonrpc.Error // the fix travels as the error's data
			if !errors.As(err, &werr) || !strings.HasPrefix(string(werr.Data), `{"fix":"call the tool again without requestState and inputResponses`) {
				t.Errorf("%s: error %#v, want data {\"fix\": …}", st.name, err)
			}
		} else {
			got = text(res)
		}
		if got != st.want {
			t.Errorf("%s: got %q, want %q", st.name, got, st.want)
		}
		if runs := faketool.Runs(t, marker); len(runs) != st.runs {
			t.Errorf("%s: the tool ran %d times, want %d", st.name, len(runs), st.runs)
		}
	}
}

// TestApprovalThenQuestion: a question the tool asks after the approval
// keeps the approval (a new ticket in its state), so the person is not
// asked twice; that state too is good for one call.
func TestApprovalThenQuestion(t *testing.T) {
	s, marker := touchServer(t, `run = "ask"`)
	c, _ := newClient(t, &mcp.ClientOptions{
		MultiRoundTrip:     &mcp.MultiRoundTripOptions{Disabled: true},
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) { panic("not called") },
	})
	cs := connect(t, s, c, nil)
	args := map[string]any{"ask": true}
	call := func(state string, responses mcp.InputResponseMap) (*mcp.CallToolResult, error) {
		return cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "t", Arguments: args, RequestState: state, InputResponses: responses})
	}
	first, err := call("", nil)
	if err != nil || first.InputRequests["approval"] == nil {
		t.Fatalf("first round = %+v, %v; want the approval form", first, err)
	}
	second, err := call(first.RequestState, mcp.InputResponseMap{"approval": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}})
	if err != nil || second.InputRequests["again"] == nil || second.InputRequests["approval"] != nil || len(faketool.Runs(t, marker)) != 0 {
		t.Fatalf("second round = %+v, %v; want the question, not the approval again, and nothing written", second, err)
	}
	yes := mcp.InputResponseMap{"again": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"again": true}}}
	third, err := call(second.RequestState, yes)
	if err != nil || text(third) != "appended hi" {
		t.Fatalf("third round = %+v, %v; want the call run", third, err)
	}
	if _, err := call(second.RequestState, yes); err == nil || !strings.Contains(err.Error(), "requestState already used or expired") {
		t.Errorf("replayed question state: %v, want the state refused", err)
	}
	if runs := faketool.Runs(t, marker); len(runs) != 1 {
		t.Errorf("the tool ran %d times, want once", len(runs))
	}
}
