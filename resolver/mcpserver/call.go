package mcpserver

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolhost/toolhost/resolver"
	"github.com/toolhost/toolhost/tool"
)

// mrtrVersion is the first MCP version in which a server may not send
// requests (such as elicitation/create) while serving one: it answers with
// input requests instead, and the client calls again with the answers
// (multi round-trip requests, SEP-2322).
const mrtrVersion = "2026-07-28"

// errDeclined is the cause when the user declined or cancelled an
// elicitation, or answered it wrongly.
var errDeclined = errors.New("the user did not answer")

// toolHandler returns the SDK handler of the named tool. Outcomes map as
// design §6 says: success → text, isError false; error → isError with the
// message; needs_input → elicitation where the client supports it, else the
// question's default, else isError with the question's text. An unknown
// tool is a protocol error; a host failure (binary missing, timed out) is
// an isError result so the model sees it.
func (s *Server) toolHandler(name string) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		args, err := resolver.DecodeArguments(req.Params.Arguments)
		if err != nil {
			return errorResult(fmt.Sprintf("invalid arguments for tool %q: %v", name, err)), nil
		}
		answers := map[string]any{}
		if req.Params.RequestState != "" || len(req.Params.InputResponses) > 0 {
			var res *mcp.CallToolResult
			answers, res, err = s.resume(name, args, req.Params)
			if res != nil || err != nil {
				return res, err
			}
		}

		ctx, done, err := s.acquire(ctx)
		if err != nil {
			return nil, err
		}
		defer done()
		res, err := s.call(ctx, req, name, args, answers)
		if err != nil && s.stopped() {
			// Close (SIGTERM, stdin closed) cancelled the call: say so,
			// rather than a bare "context canceled" with code 0.
			return nil, errShuttingDown
		}
		return res, err
	}
}

// call runs the tool through the catalog, which owns the call and its
// question loop; this face only says how to ask (elicitation, now or in a
// later request) and maps the result.
func (s *Server) call(ctx context.Context, req *mcp.CallToolRequest, name string, args, answers map[string]any) (*mcp.CallToolResult, error) {
	opts := &resolver.CallOptions{Answers: answers, OnEvent: eventSink(ctx, req)}
	mrtr := req.ProtocolVersion() >= mrtrVersion
	if supportsElicitation(req) {
		opts.Ask = func(ctx context.Context, q tool.Question) (any, error) {
			if mrtr { // answered in a later request: see inputRequired
				return nil, resolver.ErrNoAnswer
			}
			return elicitAnswer(ctx, req.Session, q)
		}
	}
	out, err := s.cat.Call(ctx, name, args, opts)
	switch {
	case err != nil:
		return callError(ctx, name, err)
	case out.Type != tool.KindNeedsInput || out.Question == nil:
		return outcomeResult(out), nil
	case opts.Ask != nil && mrtr:
		return s.inputRequired(name, args, answers, *out.Question)
	}
	return errorResult(unanswered(name, *out.Question)), nil
}

// callError maps a Go error from a call: an unknown tool is the protocol
// error the SDK gives for tools it does not know; a cancelled call returns
// the context's error; anything else is shown to the model as isError.
func callError(ctx context.Context, name string, err error) (*mcp.CallToolResult, error) {
	switch {
	case errors.Is(err, resolver.ErrUnknownTool):
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("unknown tool %q", name)}
	case ctx.Err() != nil:
		return nil, ctx.Err()
	}
	return errorResult(errorText(err)), nil
}

// errorText is what the model reads of a host error: the cause, then the
// fix on a line of its own.
func errorText(err error) string {
	if fix := resolver.FixOf(err); fix != "" {
		return err.Error() + "\nfix: " + fix
	}
	return err.Error()
}

// outcomeResult maps a success or error outcome: a success's text, its
// content blocks (protocol v2: image, resource link) and its structured
// value (structuredContent).
func outcomeResult(out tool.Outcome) *mcp.CallToolResult {
	if out.Type != tool.KindSuccess {
		return errorResult(out.String())
	}
	res := &mcp.CallToolResult{StructuredContent: out.Structured}
	if out.Content != "" || out.Blocks == nil {
		res.Content = append(res.Content, &mcp.TextContent{Text: out.Content})
	}
	for _, b := range out.Blocks {
		switch b.Type {
		case tool.BlockText:
			res.Content = append(res.Content, &mcp.TextContent{Text: b.Text})
		case tool.BlockImage:
			data, err := base64.StdEncoding.DecodeString(b.Data) // checked when decoded
			if err == nil {
				res.Content = append(res.Content, &mcp.ImageContent{Data: data, MIMEType: b.MimeType})
			}
		case tool.BlockResourceLink:
			res.Content = append(res.Content, &mcp.ResourceLink{URI: b.URI, Name: b.Name, MIMEType: b.MimeType})
		}
	}
	return res
}

// eventSink forwards a protocol v2 tool's events to the client: progress
// as notifications/progress when the client sent a progress token, logs as
// notifications/message (the session drops those below the level the
// client set — with logging/setLevel before 2026-07-28, in the request's
// _meta "io.modelcontextprotocol/logLevel" since — and all of them when it
// set none).
func eventSink(ctx context.Context, req *mcp.CallToolRequest) func(tool.Event) {
	token := req.Params.GetProgressToken()
	return func(e tool.Event) {
		switch e.Type {
		case tool.EventProgress:
			if token == nil {
				return
			}
			p := &mcp.ProgressNotificationParams{ProgressToken: token, Progress: e.Progress, Message: e.Message}
			if e.Total != nil {
				p.Total = *e.Total
			}
			_ = req.Session.NotifyProgress(ctx, p)
		case tool.EventLog:
			_ = req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: mcp.LoggingLevel(e.Level), Logger: "tool", Data: e.Message})
		}
	}
}

func errorResult(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}, IsError: true}
}

// supportsElicitation reports whether the client can answer form
// elicitations (an elicitation capability of {} means form).
func supportsElicitation(req *mcp.CallToolRequest) bool {
	caps := req.ClientCapabilities()
	if caps == nil || caps.Elicitation == nil {
		return false
	}
	return caps.Elicitation.Form != nil || caps.Elicitation.URL == nil
}

// unanswered is the isError text for a question nobody can answer here
// (the client has no elicitation and the question no default): the
// question, the answers it takes and its id, so that the model can tell
// the user what the tool needs.
func unanswered(name string, q tool.Question) string {
	var takes string
	switch q.AnswerType.Kind {
	case tool.AnswerBoolean:
		takes = "yes or no"
	case tool.AnswerSelect:
		takes = "one of " + strings.Join(q.AnswerType.Options, ", ")
	default:
		takes = "a text"
	}
	return fmt.Sprintf("%s\n\n(tool %q needs an answer to this question (id %q; answer: %s), and this client cannot ask the user: it does not support MCP elicitation. Ask the user, or use a host that can ask.)",
		questionText(q), name, q.ID, takes)
}

// questionText is the question as a human reads it.
func questionText(q tool.Question) string {
	if q.PreAmble != nil && *q.PreAmble != "" {
		return *q.PreAmble + "\n\n" + q.Text
	}
	return q.Text
}

// elicitParams is the form elicitation asking q: one property named after
// the question id.
func elicitParams(q tool.Question) *mcp.ElicitParams {
	prop := map[string]any{"title": q.Text}
	switch q.AnswerType.Kind {
	case tool.AnswerBoolean:
		prop["type"] = "boolean"
	case tool.AnswerSelect:
		prop["type"] = "string"
		prop["enum"] = q.AnswerType.Options
	default:
		prop["type"] = "string"
	}
	if q.Default != nil && q.Check(q.Default) == nil {
		prop["default"] = q.Default
	}
	return &mcp.ElicitParams{
		Mode:    "form",
		Message: questionText(q),
		RequestedSchema: map[string]any{
			"type":       "object",
			"properties": map[string]any{q.ID: prop},
			"required":   []string{q.ID},
		},
	}
}

// elicitAnswer asks the client (protocol versions before mrtrVersion).
func elicitAnswer(ctx context.Context, ss *mcp.ServerSession, q tool.Question) (any, error) {
	res, err := ss.Elicit(ctx, elicitParams(q))
	if err != nil {
		return nil, fmt.Errorf("asking %q: %w", q.Text, err)
	}
	return answerOf(q, res)
}

// answerOf reads q's answer from an elicitation result.
func answerOf(q tool.Question, res *mcp.ElicitResult) (any, error) {
	if res == nil || res.Action != "accept" {
		action := "cancel"
		if res != nil {
			action = res.Action
		}
		return nil, fmt.Errorf("%w (%s): %s", errDeclined, action, q.Text)
	}
	a, ok := res.Content[q.ID]
	if !ok {
		return nil, fmt.Errorf("%w (no answer in the form): %s", errDeclined, q.Text)
	}
	if err := q.Check(a); err != nil {
		return nil, fmt.Errorf("%w (%v): %s", errDeclined, err, q.Text)
	}
	return a, nil
}

// callState is what a multi round-trip call carries from one round to
// the next, in the request state (signed, so a client cannot forge answers
// to questions never asked).
type callState struct {
	Tool     string         `json:"tool"`
	Args     string         `json:"args"` // sha256 of the arguments' JSON
	Answers  map[string]any `json:"answers"`
	Question tool.Question  `json:"question"`
}

// inputRequired answers a round of a multi round-trip call with the
// question as a form elicitation.
func (s *Server) inputRequired(name string, args, answers map[string]any, q tool.Question) (*mcp.CallToolResult, error) {
	st := callState{Tool: name, Args: argsHash(args), Answers: answers, Question: q}
	payload, err := json.Marshal(st)
	if err != nil {
		return nil, err
	}
	return &mcp.CallToolResult{
		InputRequests: mcp.InputRequestMap{q.ID: elicitParams(q)},
		RequestState:  s.sign(payload),
	}, nil
}

// resume reads the state and input responses of a retried call: the
// answers so far, or the result to send at once (a declined question), or
// a protocol error (forged or foreign state).
func (s *Server) resume(name string, args map[string]any, p *mcp.CallToolParamsRaw) (map[string]any, *mcp.CallToolResult, error) {
	bad := &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "invalid requestState: this server did not issue it for this tool and these arguments " +
		"(a restarted server forgets the states it issued); call the tool again without requestState and inputResponses"}
	payload, ok := s.verify(p.RequestState)
	if !ok {
		return nil, nil, bad
	}
	var st callState
	if err := json.Unmarshal(payload, &st); err != nil || st.Tool != name || st.Args != argsHash(args) {
		return nil, nil, bad
	}
	answers := st.Answers
	if answers == nil {
		answers = map[string]any{}
	}
	resp, ok := p.InputResponses[st.Question.ID].(*mcp.ElicitResult)
	if !ok {
		return nil, nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("missing input response %q", st.Question.ID)}
	}
	a, err := answerOf(st.Question, resp)
	if err != nil {
		return nil, errorResult(err.Error()), nil
	}
	answers[st.Question.ID] = a
	return answers, nil, nil
}

func argsHash(args map[string]any) string {
	b, _ := json.Marshal(args) // map keys sorted: canonical enough
	h := sha256.Sum256(b)
	return base64.RawURLEncoding.EncodeToString(h[:])
}

func newKey() []byte {
	k := make([]byte, 32)
	rand.Read(k)
	return k
}

func (s *Server) sign(payload []byte) string {
	m := hmac.New(sha256.New, s.key)
	m.Write(payload)
	return base64.RawURLEncoding.EncodeToString(payload) + "." + base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

func (s *Server) verify(state string) ([]byte, bool) {
	p, sig, ok := strings.Cut(state, ".")
	if !ok {
		return nil, false
	}
	payload, err1 := base64.RawURLEncoding.DecodeString(p)
	mac, err2 := base64.RawURLEncoding.DecodeString(sig)
	if err1 != nil || err2 != nil {
		return nil, false
	}
	m := hmac.New(sha256.New, s.key)
	m.Write(payload)
	return payload, hmac.Equal(mac, m.Sum(nil))
}
