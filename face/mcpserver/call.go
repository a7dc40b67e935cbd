package mcpserver

import (
	"bytes"
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolhost/toolhost/audit"
	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/face/internal/callresult"
	"github.com/toolhost/toolhost/tool"
)

// mrtrVersion is the first MCP version in which a server may not send
// requests, such as elicitation/create, while serving one. It answers with
// input requests instead, and the client calls again with the answers.
// These are multi round-trip requests (SEP-2322).
const mrtrVersion = "2026-07-28"

// errDeclined is the cause when the user declined or cancelled an
// elicitation, or answered it wrongly.
var errDeclined = errors.New("the user did not answer")

// toolHandler returns the SDK handler of the named tool. Outcomes map as
// docs/mcp.md "Tool calls" says: success → text, isError false; error → isError with the
// message; needs_input → elicitation where the client supports it, else the
// question's default, else isError with the question's text. An unknown
// tool is a protocol error. A host failure (binary missing, timed out) is
// an isError result so the model sees it.
func (s *Server) toolHandler(name string) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		args, err := catalog.DecodeArguments(req.Params.Arguments)
		if err != nil {
			return callresult.Error(callresult.ErrorText(fmt.Errorf("invalid arguments for tool %q: %w", name, err))), nil
		}
		answers := map[string]any{}
		v := notAsked
		if req.Params.RequestState != "" || len(req.Params.InputResponses) > 0 {
			var res *mcp.CallToolResult
			answers, v, res, err = s.resume(name, args, req.Params)
			if res != nil || err != nil {
				return res, err
			}
		}

		ctx = callerTrace(ctx, req)
		ctx, done, err := s.acquire(ctx)
		if err != nil {
			return nil, err
		}
		defer done()
		// On a kept goroutine: the SDK starts one per request, and a call
		// (validation, the source's forwarding) runs deep enough to grow
		// a fresh goroutine's stack several times (internal/warm).
		var res *mcp.CallToolResult
		err = s.runner.Do(func() (err error) {
			res, err = s.call(ctx, req, name, args, answers, v)
			return err
		})
		if err != nil && s.stopped() {
			// Close (SIGTERM, stdin closed) cancelled the call: say so,
			// rather than a bare "context canceled" with code 0.
			return nil, errShuttingDown
		}
		return res, err
	}
}

// call runs the tool through the catalog, which owns the call and its
// question loop. This face only says how to ask (elicitation, now or in a
// later request) and how to ask for approval (approve.go), and maps the
// result. v is the approval a person gave in an earlier round.
func (s *Server) call(ctx context.Context, req *mcp.CallToolRequest, name string, args, answers map[string]any, v verdict) (*mcp.CallToolResult, error) {
	opts := &catalog.CallOptions{Answers: answers, OnEvent: eventSink(ctx, req)}
	mrtr := req.ProtocolVersion() >= mrtrVersion
	var pending *catalog.Approval      // asked for in this answer (multi round-trip)
	elicit := supportsElicitation(req) // once: on 2026-07-28 the SDK decodes the request's _meta for it
	opts.Approve = approver(req, v, mrtr, elicit, &pending)
	if elicit {
		opts.AskForm = func(ctx context.Context, qs []tool.Question) (map[string]any, error) {
			if mrtr { // answered in a later request: see inputRequired
				return nil, catalog.ErrNoAnswer
			}
			return elicitAnswers(ctx, req.Session, qs)
		}
		opts.Ask = func(ctx context.Context, q tool.Question) (any, error) {
			got, err := opts.AskForm(ctx, []tool.Question{q})
			return got[q.ID], err
		}
	}
	// The answer is made and bounded (bound.go: the tool's max_output)
	// when the call ends, before the catalog writes its audit line, so
	// that the line says what was cut.
	var res *mcp.CallToolResult
	var resErr error
	sent := false
	opts.Sent = func(out tool.Outcome, err error) audit.Cut {
		sent = true
		res, resErr = s.answer(ctx, name, args, answers, v, mrtr, opts, pending, out, err)
		var cut audit.Cut
		res, cut = s.boundResult(name, res)
		return cut
	}
	out, err := s.cat.Call(withCaller(ctx, req), name, args, opts) // caller.go: the audit line's face and client
	if !sent {
		// A Catalog of a host's own may not call Sent.
		opts.Sent(out, err)
	}
	return res, resErr
}

// answer maps the end of a call, out and err, to the result for the
// client. pending is the approval asked for in this request, if any.
func (s *Server) answer(ctx context.Context, name string, args, answers map[string]any, v verdict, mrtr bool, opts *catalog.CallOptions, pending *catalog.Approval, out tool.Outcome, err error) (*mcp.CallToolResult, error) {
	switch {
	case pending != nil && errors.Is(err, catalog.ErrNoAnswer):
		return s.approvalRequired(name, args, answers, *pending)
	case errors.Is(err, catalog.ErrApprovalRequired):
		return callresult.Error(cannotApprove(name)), nil
	case err != nil:
		return callError(ctx, name, err)
	case out.Type != tool.KindNeedsInput || out.Question == nil:
		return callresult.Outcome(out), nil
	case opts.Ask != nil && mrtr:
		return s.inputRequired(name, args, answers, out.AllQuestions(), v == approved)
	}
	return callresult.Error(unanswered(name, *out.Question)), nil
}

// callError maps a Go error from a call: an unknown tool is the protocol
// error the SDK gives for tools it does not know. A cancelled call returns
// the context's error. Anything else is shown to the model as isError.
func callError(ctx context.Context, name string, err error) (*mcp.CallToolResult, error) {
	switch {
	case errors.Is(err, catalog.ErrUnknownTool):
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("unknown tool %q", name)}
	case ctx.Err() != nil:
		return nil, ctx.Err()
	}
	return callresult.Error(callresult.ErrorText(err)), nil
}

// eventSink forwards a protocol v2 tool's events to the client. Progress
// goes as notifications/progress when the client sent a progress token.
// Logs go as notifications/message. The session drops those below the
// level the client set, and all of them when it set none. Before
// 2026-07-28 the client sets the level with logging/setLevel. Since then
// it sets it in the request's _meta "io.modelcontextprotocol/logLevel".
func eventSink(ctx context.Context, req *mcp.CallToolRequest) func(tool.Event) {
	k := &sink{ctx: ctx, req: req, token: req.Params.GetProgressToken(), bucket: progressBurst}
	return k.event
}

// sink is the state of one call's eventSink. Most calls send no event:
// it reads the clock at the first progress, not when the call starts. The
// bucket starts full, so the time before the first progress would add
// nothing to it.
type sink struct {
	ctx    context.Context
	req    *mcp.CallToolRequest
	token  any
	bucket float64   // tokens: a burst of progress goes out whole, a flood is thinned
	last   time.Time // zero until the first progress
	logs   int
}

// event forwards e. It is called from one goroutine: the call's stdout
// reader.
func (k *sink) event(e tool.Event) {
	switch e.Type {
	case tool.EventProgress:
		if k.token == nil {
			return
		}
		now := time.Now()
		if !k.last.IsZero() {
			k.bucket = min(progressBurst, k.bucket+now.Sub(k.last).Seconds()*progressRate)
		}
		k.last = now
		done := e.Total != nil && e.Progress >= *e.Total
		if k.bucket < 1 && !done {
			return // a tool may report faster than a client wants to hear
		}
		k.bucket--
		p := &mcp.ProgressNotificationParams{ProgressToken: k.token, Progress: e.Progress, Message: e.Message}
		if e.Total != nil {
			p.Total = *e.Total
		}
		_ = k.req.Session.NotifyProgress(k.ctx, p)
	case tool.EventLog:
		if k.logs++; k.logs > maxLogsPerCall {
			return
		}
		msg := e.Message
		if k.logs == maxLogsPerCall {
			msg += fmt.Sprintf(" (the tool's further log lines in this call are dropped: at most %d are forwarded)", maxLogsPerCall)
		}
		_ = k.req.Session.Log(k.ctx, &mcp.LoggingMessageParams{Level: mcp.LoggingLevel(e.Level), Logger: "tool", Data: msg})
	}
}

// Bounds on what one call's events send a client: a tool printing event
// lines in a loop must not flood it (MCP asks senders to rate-limit
// progress). Progress goes out as a token bucket allows (a burst of
// progressBurst, then progressRate a second). The last progress
// (progress = total) is always sent.
const (
	progressBurst  = 20
	progressRate   = 20.0
	maxLogsPerCall = 1000
)

// supportsElicitation reports whether the client can answer form
// elicitations (an elicitation capability of {} means form).
func supportsElicitation(req *mcp.CallToolRequest) bool {
	if form, ok := metaFormElicitation(req); ok {
		return form
	}
	caps := req.ClientCapabilities()
	if caps == nil || caps.Elicitation == nil {
		return false
	}
	return caps.Elicitation.Form != nil || caps.Elicitation.URL == nil
}

// metaFormElicitation is supportsElicitation for a request of protocol
// 2026-07-28 or later, read from its _meta as the SDK decoded it. The
// SDK's ClientCapabilities marshals the capabilities and decodes them
// again, with a 32 KiB decoder buffer, on every call. ok is false for an
// older protocol's request. It is false too for any shape but the plain
// one, which is objects, and nulls for members left out. The SDK answers
// those.
//
// The SDK refuses a request of these protocols before its handler runs
// unless its capabilities decode. So a plain shape reads here as its
// decoder reads it. A null member is a missing one, and only members named
// exactly so count. TestMetaFormElicitation compares the two.
func metaFormElicitation(req *mcp.CallToolRequest) (form, ok bool) {
	if req.Params == nil {
		return false, false
	}
	meta := req.Params.Meta
	if v, _ := meta[mcp.MetaKeyProtocolVersion].(string); v < mrtrVersion {
		return false, false
	}
	caps, isObj := meta[mcp.MetaKeyClientCapabilities].(map[string]any)
	if !isObj {
		return false, false
	}
	var modes map[string]any
	switch e := caps["elicitation"].(type) {
	case nil:
		return false, true
	case map[string]any:
		modes = e
	default:
		return false, false
	}
	set := map[string]bool{}
	for _, k := range []string{"form", "url"} {
		switch modes[k].(type) {
		case nil:
		case map[string]any:
			set[k] = true
		default:
			return false, false
		}
	}
	return set["form"] || !set["url"], true
}

// unanswered is the isError text for a question nobody can answer here,
// as the client has no elicitation and the question no default. It holds
// the question, the answers it takes and its id. So the model can tell
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
		callresult.QuestionText(q), name, q.ID, takes)
}

// elicitAnswers asks the client (protocol versions before mrtrVersion).
func elicitAnswers(ctx context.Context, ss *mcp.ServerSession, qs []tool.Question) (map[string]any, error) {
	res, err := ss.Elicit(ctx, callresult.Elicit(qs))
	if err != nil {
		return nil, fmt.Errorf("asking %q: %w", qs[0].Text, err)
	}
	return answersOf(qs, res)
}

// answersOf reads the answers to qs from an elicitation result.
func answersOf(qs []tool.Question, res *mcp.ElicitResult) (map[string]any, error) {
	if res == nil || res.Action != "accept" {
		action := "cancel"
		if res != nil {
			action = res.Action
		}
		return nil, fmt.Errorf("%w (%s): %s", errDeclined, action, qs[0].Text)
	}
	answers := make(map[string]any, len(qs))
	for _, q := range qs {
		a, ok := res.Content[q.ID]
		if !ok {
			return nil, fmt.Errorf("%w (no answer in the form): %s", errDeclined, q.Text)
		}
		if n, isNum := a.(float64); isNum && q.AnswerType.Kind == tool.AnswerNumber {
			a = json.Number(strconv.FormatFloat(n, 'f', -1, 64))
		}
		if err := q.Check(a); err != nil {
			if q.AnswerType.Kind == tool.AnswerSecret {
				err = fmt.Errorf("question %q wants a secret text answer", q.ID) // never echoed
			}
			return nil, fmt.Errorf("%w (%v): %s", errDeclined, err, q.Text)
		}
		answers[q.ID] = a
	}
	return answers, nil
}

// callState is what a multi round-trip call carries from one round to
// the next, in the request state. It is sealed with AES-GCM and the
// server's key. So a client can neither forge answers to questions never
// asked nor read back a secret it answered.
//
// A call that needs approval carries a one-time ticket (internal/approval)
// bound to its tool and arguments. Approval is set when this round asks
// for the approval. Approved is set when a person approved it in an
// earlier round, and the questions that follow keep it. A replayed state
// finds its ticket spent.
type callState struct {
	Tool     string          `json:"tool"`
	Args     string          `json:"args"` // sha256 of the arguments' JSON
	Answers  map[string]any  `json:"answers"`
	Asked    json.RawMessage `json:"asked"` // the needs_input outcome: its question(s), in protocol v2's spelling
	Approval string          `json:"approval,omitempty"`
	Approved string          `json:"approved,omitempty"`
}

// inputRequired answers a round of a multi round-trip call with the
// questions as one form elicitation. approved says that a person approved
// the call in an earlier round: the next round runs it without asking.
func (s *Server) inputRequired(name string, args, answers map[string]any, qs []tool.Question, approved bool) (*mcp.CallToolResult, error) {
	asked := tool.Outcome{Type: tool.KindNeedsInput, Question: &qs[0]}
	if len(qs) > 1 {
		asked.Questions = qs
	}
	askedJSON, err := tool.Marshal(asked)
	if err != nil {
		return nil, err
	}
	st := callState{Tool: name, Args: argsHash(args), Answers: answers, Asked: askedJSON}
	if approved {
		st.Approved = s.tickets.Issue(name, args)
	}
	payload, err := json.Marshal(st)
	if err != nil {
		return nil, err
	}
	return &mcp.CallToolResult{
		InputRequests: mcp.InputRequestMap{callresult.InputKey(qs): callresult.Elicit(qs)},
		RequestState:  s.seal(payload),
	}, nil
}

// resume reads the state and input responses of a retried call. It
// returns the answers so far and the person's verdict on the call's
// approval. Or it returns the result to send at once, for a declined
// question. Or it returns a protocol error, for forged or foreign state
// or an approval ticket already spent.
func (s *Server) resume(name string, args map[string]any, p *mcp.CallToolParamsRaw) (map[string]any, verdict, *mcp.CallToolResult, error) {
	bad := rpcError(jsonrpc.CodeInvalidParams, catalog.Problem{
		Err: errors.New("invalid requestState: this server did not issue it for this tool and these arguments (a restarted server forgets the states it issued)"),
		Fix: "call the tool again without requestState and inputResponses"})
	payload, ok := s.open(p.RequestState)
	if !ok {
		return nil, notAsked, nil, bad
	}
	var st callState
	d := json.NewDecoder(bytes.NewReader(payload))
	d.UseNumber()
	if err := d.Decode(&st); err != nil || st.Tool != name || st.Args != argsHash(args) {
		return nil, notAsked, nil, bad
	}
	answers := st.Answers
	if answers == nil {
		answers = map[string]any{}
	}
	spent := rpcError(jsonrpc.CodeInvalidParams, catalog.Problem{
		Err: errors.New("requestState already used or expired: an approval counts for one call"),
		Fix: "call the tool again without requestState and inputResponses, and the user is asked again"})
	v := notAsked
	switch {
	case st.Approval != "": // this round asked for approval, and nothing else
		if !s.tickets.Redeem(st.Approval, name, args) {
			return nil, notAsked, nil, spent
		}
		resp, ok := p.InputResponses[callresult.ApprovalKey].(*mcp.ElicitResult)
		if !ok {
			return nil, notAsked, nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("missing input response %q", callresult.ApprovalKey)}
		}
		if approves(resp) {
			return answers, approved, nil, nil
		}
		return answers, declined, nil, nil
	case st.Approved != "":
		if !s.tickets.Redeem(st.Approved, name, args) {
			return nil, notAsked, nil, spent
		}
		v = approved
	}
	asked, err := tool.DecodeOutcomeV2(st.Asked)
	if err != nil || len(asked.AllQuestions()) == 0 {
		return nil, notAsked, nil, bad
	}
	qs := asked.AllQuestions()
	key := callresult.InputKey(qs)
	resp, ok := p.InputResponses[key].(*mcp.ElicitResult)
	if !ok {
		return nil, notAsked, nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("missing input response %q", key)}
	}
	got, err := answersOf(qs, resp)
	if err != nil {
		return nil, notAsked, callresult.Error(err.Error()), nil
	}
	maps.Copy(answers, got)
	return answers, v, nil, nil
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

// seal encrypts and authenticates payload with the server's key.
func (s *Server) seal(payload []byte) string {
	aead := s.aead()
	nonce := make([]byte, aead.NonceSize())
	rand.Read(nonce)
	return base64.RawURLEncoding.EncodeToString(aead.Seal(nonce, nonce, payload, nil))
}

// open returns the payload of a state this server sealed.
func (s *Server) open(state string) ([]byte, bool) {
	data, err := base64.RawURLEncoding.DecodeString(state)
	aead := s.aead()
	if err != nil || len(data) < aead.NonceSize() {
		return nil, false
	}
	payload, err := aead.Open(nil, data[:aead.NonceSize()], data[aead.NonceSize():], nil)
	return payload, err == nil
}

func (s *Server) aead() cipher.AEAD {
	block, err := aes.NewCipher(s.key)
	if err != nil {
		panic("mcpserver: " + err.Error()) // the key is 32 bytes
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		panic("mcpserver: " + err.Error())
	}
	return aead
}
