package mcpserver

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolhost/toolhost/tool"
)

// TestResume: a retried call whose requestState is forged, or was issued
// for another tool or other arguments, or lacks the answer asked for, is
// a protocol error that says what to do; a declined answer is an isError
// result; an accepted one is the answers so far plus it.
func TestResume(t *testing.T) {
	s := &Server{key: newKey()}
	args := map[string]any{"path": "a.txt"}
	q := tool.Question{ID: "overwrite", Text: "Overwrite a.txt?", AnswerType: tool.AnswerType{Kind: tool.AnswerBoolean}}
	res, err := s.inputRequired("rm", args, map[string]any{"earlier": "x"}, []tool.Question{q}, false)
	if err != nil {
		t.Fatal(err)
	}
	state := res.RequestState
	accept := mcp.InputResponseMap{"overwrite": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"overwrite": true}}}
	invalid := "invalid requestState: this server did not issue it for this tool and these arguments " +
		"(a restarted server forgets the states it issued)"
	const again = `{"fix":"call the tool again without requestState and inputResponses"}`
	tests := []struct {
		name      string
		tool      string
		args      map[string]any
		state     string
		responses mcp.InputResponseMap
		wantErr   string
		wantData  string // the error's data: its fix
	}{
		{"forged", "rm", args, "e30.AAAA", accept, invalid, again},
		{"other server", "rm", args, (&Server{key: newKey()}).seal([]byte("{}")), accept, invalid, again},
		{"other tool", "mv", args, state, accept, invalid, again},
		{"other arguments", "rm", map[string]any{"path": "b.txt"}, state, accept, invalid, again},
		{"no answer", "rm", args, state, nil, `missing input response "overwrite"`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, _, err := s.resume(tt.tool, tt.args, &mcp.CallToolParamsRaw{RequestState: tt.state, InputResponses: tt.responses})
			var werr *jsonrpc.Error
			if !errors.As(err, &werr) || werr.Code != jsonrpc.CodeInvalidParams || werr.Message != tt.wantErr || string(werr.Data) != tt.wantData {
				t.Errorf("resume err = %v, want code %d %q with data %s", err, jsonrpc.CodeInvalidParams, tt.wantErr, tt.wantData)
			}
		})
	}
	t.Run("declined", func(t *testing.T) {
		decline := mcp.InputResponseMap{"overwrite": &mcp.ElicitResult{Action: "decline"}}
		_, _, res, err := s.resume("rm", args, &mcp.CallToolParamsRaw{RequestState: state, InputResponses: decline})
		if err != nil || res == nil || !res.IsError {
			t.Fatalf("resume = %v, %v; want an isError result", res, err)
		}
		if got, want := res.Content[0].(*mcp.TextContent).Text, "the user did not answer (decline): Overwrite a.txt?"; got != want {
			t.Errorf("text = %q, want %q", got, want)
		}
	})
	t.Run("accepted", func(t *testing.T) {
		answers, _, res, err := s.resume("rm", args, &mcp.CallToolParamsRaw{RequestState: state, InputResponses: accept})
		if err != nil || res != nil {
			t.Fatalf("resume = %v, %v; want the answers", res, err)
		}
		if want := map[string]any{"earlier": "x", "overwrite": true}; !reflect.DeepEqual(answers, want) {
			t.Errorf("answers = %v, want %v", answers, want)
		}
	})
}

// TestResumeForm: several questions (protocol v2) are one form, keyed
// "form"; the answers come back typed (a Number as json.Number), and the
// state does not show a Secret answer to whoever holds it.
func TestResumeForm(t *testing.T) {
	s := &Server{key: newKey()}
	qs := []tool.Question{
		{ID: "n", Text: "How many?", AnswerType: tool.Number(nil, nil, true)},
		{ID: "token", Text: "Token?", AnswerType: tool.Secret},
	}
	res, err := s.inputRequired("t", nil, map[string]any{"earlier": "hunter2"}, qs, false)
	if err != nil {
		t.Fatal(err)
	}
	form, ok := res.InputRequests["form"].(*mcp.ElicitParams)
	if !ok {
		t.Fatalf("input requests %v, want one form", res.InputRequests)
	}
	props := form.RequestedSchema.(map[string]any)["properties"].(map[string]any)
	if props["n"].(map[string]any)["type"] != "integer" || props["token"].(map[string]any)["type"] != "string" {
		t.Errorf("form fields %v", props)
	}
	if strings.Contains(res.RequestState, "hunter2") || strings.Contains(res.RequestState, base64.RawURLEncoding.EncodeToString([]byte("hunter2"))[:8]) {
		t.Error("the request state shows an earlier answer in the clear")
	}
	answers, _, bad, err := s.resume("t", nil, &mcp.CallToolParamsRaw{RequestState: res.RequestState,
		InputResponses: mcp.InputResponseMap{"form": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"n": 3.0, "token": "s3cret"}}}})
	if err != nil || bad != nil {
		t.Fatalf("resume = %v, %v", bad, err)
	}
	if want := map[string]any{"earlier": "hunter2", "n": json.Number("3"), "token": "s3cret"}; !reflect.DeepEqual(answers, want) {
		t.Errorf("answers = %#v, want %#v", answers, want)
	}
	_, _, bad, _ = s.resume("t", nil, &mcp.CallToolParamsRaw{RequestState: res.RequestState,
		InputResponses: mcp.InputResponseMap{"form": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"n": 3.0, "token": 42.0}}}})
	if bad == nil || strings.Contains(bad.Content[0].(*mcp.TextContent).Text, "42") {
		t.Errorf("a wrong secret answer: %+v, want an error that does not echo it", bad)
	}
}

// TestMetaFormElicitation: read from a 2026-07-28 request's _meta, the
// elicitation capability is what the SDK's ClientCapabilities says, and
// the plain shapes are read without it; an older protocol's request and
// other shapes are left to the SDK.
func TestMetaFormElicitation(t *testing.T) {
	tests := []struct {
		name, caps string
		version    string
		want, ok   bool
	}{
		{"none", `{}`, "2026-07-28", false, true},
		{"null", `{"elicitation":null}`, "2026-07-28", false, true},
		{"empty means form", `{"elicitation":{}}`, "2026-07-28", true, true},
		{"form", `{"elicitation":{"form":{}}}`, "2026-07-28", true, true},
		{"url only", `{"elicitation":{"url":{}}}`, "2026-07-28", false, true},
		{"both", `{"elicitation":{"form":{},"url":{}}}`, "2026-07-28", true, true},
		{"form null", `{"elicitation":{"form":null,"url":{}}}`, "2026-07-28", false, true},
		{"other capabilities", `{"roots":{"listChanged":true},"sampling":{},"elicitation":{"form":{}}}`, "2026-07-28", true, true},
		{"wrong case", `{"Elicitation":{"form":{}}}`, "2026-07-28", false, true},
		{"older protocol", `{"elicitation":{}}`, "2025-11-25", false, false},
		{"no version", `{"elicitation":{}}`, "", false, false},
		{"odd shape", `{"elicitation":{"form":true}}`, "2026-07-28", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var params mcp.CallToolParamsRaw
			meta := `{"` + mcp.MetaKeyClientCapabilities + `":` + tt.caps
			if tt.version != "" {
				meta += `,"` + mcp.MetaKeyProtocolVersion + `":"` + tt.version + `"`
			}
			if err := json.Unmarshal([]byte(`{"name":"t","_meta":`+meta+`}}`), &params); err != nil {
				t.Fatal(err)
			}
			req := &mcp.CallToolRequest{Params: &params}
			got, ok := metaFormElicitation(req)
			if got != tt.want || ok != tt.ok {
				t.Errorf("metaFormElicitation = %v, %v; want %v, %v", got, ok, tt.want, tt.ok)
			}
			if !ok {
				return
			}
			caps := req.ClientCapabilities()
			sdk := caps != nil && caps.Elicitation != nil && (caps.Elicitation.Form != nil || caps.Elicitation.URL == nil)
			if got != sdk {
				t.Errorf("metaFormElicitation = %v, the SDK's capabilities say %v", got, sdk)
			}
		})
	}
}

// BenchmarkElicitationCapability: reading a 2026-07-28 call's elicitation
// capability from its _meta as decoded (metaFormElicitation), against the
// SDK's ClientCapabilities, which marshals the capabilities and decodes
// them again with a decoder buffer of 32 KiB.
func BenchmarkElicitationCapability(b *testing.B) {
	var params mcp.CallToolParamsRaw
	if err := json.Unmarshal([]byte(`{"name":"t","_meta":{"`+mcp.MetaKeyClientCapabilities+`":{"roots":{"listChanged":true},"elicitation":{"form":{}}},"`+
		mcp.MetaKeyProtocolVersion+`":"2026-07-28"}}`), &params); err != nil {
		b.Fatal(err)
	}
	req := &mcp.CallToolRequest{Params: &params}
	b.Run("meta", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if form, ok := metaFormElicitation(req); !form || !ok {
				b.Fatal("no form elicitation")
			}
		}
	})
	b.Run("sdk", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if caps := req.ClientCapabilities(); caps == nil || caps.Elicitation == nil {
				b.Fatal("no elicitation")
			}
		}
	})
}
