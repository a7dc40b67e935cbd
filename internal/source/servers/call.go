package servers

import (
	"cmp"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/internal/source/mcp"
	"github.com/toolhost/toolhost/internal/warm"
	"github.com/toolhost/toolhost/tool"
)

// calls are the calls of one source under way: each round of a call the
// catalog runs either starts a server call or resumes one that waits for
// the answers to its elicitation. Safe for concurrent use.
type calls struct {
	name string // the source's ("mcp.NAME" or "remote.NAME"), for errors and asker

	// runs the server calls: the go-sdk's client call runs deep enough to
	// grow a fresh goroutine's stack several times (internal/warm)
	runner warm.Pool

	mu      sync.Mutex
	waiting map[string][]*pending // by tool and arguments: the calls waiting for answers
}

// pending is one server call and its rounds.
type pending struct {
	key    string
	cancel context.CancelFunc
	asks   chan []tool.Question   // the elicit hook hands its questions to the waiting round
	reply  chan map[string]any    // the next round's answers to them
	done   chan struct{}          // closed when the server call ended; res and err set
	res    *mcpsdk.CallToolResult // set before done is closed
	err    error                  // set before done is closed

	mu      sync.Mutex
	onEvent func(tool.Event) // the current round's
	answers map[string]any   // the current round's
	asked   []tool.Question  // the questions the call waits for, while parked
	used    map[string]int   // form fields asked in this call, by name; nil until the first elicitation
	asker   string           // what each question starts with (see calls.asker); "" until the first elicitation
	from    *calls           // the source's calls, for asker
}

// asker is what each question a server asks starts with. So no server can
// word its question as toolhost's own, such as its approval prompt. It is
// `MCP server "NAME" asks: ` or `remote catalog "NAME" asks: `. The
// configured name is quoted as Go quotes it, escaped, so a name cannot
// break the line.
func (c *calls) asker() string {
	if name, ok := strings.CutPrefix(c.name, "remote."); ok {
		return fmt.Sprintf("remote catalog %q asks: ", name)
	}
	return fmt.Sprintf("MCP server %q asks: ", strings.TrimPrefix(c.name, "mcp."))
}

// round runs one round of a call of the server's tool name (see the
// package comment, "Calls").
func (c *calls) round(ctx context.Context, src *mcp.Source, name string, timeout time.Duration, req catalog.CallRequest) (catalog.CallResult, error) {
	args, err := tool.Marshal(req.Args)
	if err != nil {
		return catalog.CallResult{}, fmt.Errorf("%s: tool %q: the arguments are not JSON: %w", c.name, req.Tool, err)
	}
	if req.Args == nil {
		args = []byte("{}")
	}
	key := name + "\x00" + string(args)
	p := c.resume(key, req.Answers)
	if p != nil {
		p.mu.Lock()
		p.onEvent, p.answers = req.OnEvent, req.Answers
		got := make(map[string]any, len(p.asked))
		for _, q := range p.asked {
			got[q.ID] = req.Answers[q.ID]
		}
		p.asked = nil
		p.mu.Unlock()
		p.reply <- got
	} else {
		p = c.start(ctx, src, name, args, timeout, key, req)
	}
	select {
	case qs := <-p.asks:
		c.park(p, qs)
		out := tool.Outcome{Type: tool.KindNeedsInput, Question: &qs[0]}
		if len(qs) > 1 {
			out.Questions = qs
		}
		return catalog.CallResult{Outcome: out}, nil
	case <-p.done:
		if p.err != nil {
			return catalog.CallResult{}, p.err
		}
		return catalog.CallResult{Outcome: outcomeOf(p.res)}, nil
	case <-ctx.Done():
		p.cancel() // the server gets notifications/cancelled
		return catalog.CallResult{}, fmt.Errorf("%s: tool %q: %w", c.name, req.Tool, context.Cause(ctx))
	}
}

// start starts the server call of one call's first round. The server call
// outlives the round (a later round may answer its questions): it ends
// with its result, its timeout, or a round's cancellation.
func (c *calls) start(ctx context.Context, src *mcp.Source, name string, args []byte, timeout time.Duration, key string, req catalog.CallRequest) *pending {
	pctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	if timeout > 0 {
		var stop context.CancelFunc
		pctx, stop = context.WithTimeout(pctx, timeout)
		inner := cancel
		cancel = func() { stop(); inner() }
	}
	p := &pending{key: key, cancel: cancel, asks: make(chan []tool.Question), reply: make(chan map[string]any, 1),
		done: make(chan struct{}), onEvent: req.OnEvent, answers: req.Answers, from: c}
	hooks := &mcp.Hooks{Progress: p.progress, Log: p.log, Elicit: p.elicit}
	c.runner.Go(func() {
		res, err := src.Call(pctx, name, args, hooks)
		cancel()
		c.forget(p)
		p.res, p.err = res, err
		close(p.done)
	})
	return p
}

// park notes p as waiting for the answers to qs.
func (c *calls) park(p *pending, qs []tool.Question) {
	p.mu.Lock()
	p.asked = qs
	p.mu.Unlock()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.waiting == nil {
		c.waiting = map[string][]*pending{}
	}
	c.waiting[p.key] = append(c.waiting[p.key], p)
}

// resume returns a call waiting under key whose questions answers all
// answer, no longer waiting, nil when there is none.
func (c *calls) resume(key string, answers map[string]any) *pending {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, p := range c.waiting[key] {
		p.mu.Lock()
		ok := len(p.asked) > 0
		for _, q := range p.asked {
			if a, found := answers[q.ID]; !found || q.Check(a) != nil {
				ok = false
			}
		}
		p.mu.Unlock()
		if ok {
			c.waiting[key] = slices.Delete(c.waiting[key], i, i+1)
			if len(c.waiting[key]) == 0 {
				delete(c.waiting, key)
			}
			return p
		}
	}
	return nil
}

// forget removes p from the waiting calls.
func (c *calls) forget(p *pending) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.waiting[p.key]; !ok {
		return
	}
	c.waiting[p.key] = slices.DeleteFunc(c.waiting[p.key], func(q *pending) bool { return q == p })
	if len(c.waiting[p.key]) == 0 {
		delete(c.waiting, p.key)
	}
}

// event hands e to the current round.
func (p *pending) event(e tool.Event) {
	p.mu.Lock()
	f := p.onEvent
	p.mu.Unlock()
	if f != nil {
		f(e)
	}
}

func (p *pending) progress(n *mcp.Progress) {
	e := tool.Event{Type: tool.EventProgress, Progress: n.Progress, Message: n.Message}
	if n.Total > 0 {
		t := n.Total
		e.Total = &t
	}
	p.event(e)
}

func (p *pending) log(m *mcp.LogMessage) {
	msg, ok := m.Data.(string)
	if !ok {
		data, _ := json.Marshal(m.Data)
		msg = string(data)
	}
	if m.Logger != "" {
		msg = m.Logger + ": " + msg
	}
	p.event(tool.Event{Type: tool.EventLog, Level: string(m.Level), Message: msg})
}

// elicit answers the server's elicitation. It uses the round's answers
// when they answer every question: the configuration's fixed answers, or
// those a caller gave up front. Else it goes through the catalog. The
// waiting round returns the questions, and the next round's answers come
// back here.
func (p *pending) elicit(ctx context.Context, params *mcpsdk.ElicitParams) (*mcpsdk.ElicitResult, error) {
	p.mu.Lock()
	if p.used == nil { // most calls elicit nothing: made at the first
		p.used, p.asker = map[string]int{}, p.from.asker()
	}
	form, err := formOf(params, p.used, p.asker)
	answers := maps.Clone(p.answers)
	p.mu.Unlock()
	if err != nil {
		return &mcpsdk.ElicitResult{Action: "decline"}, nil
	}
	var open []tool.Question
	for _, q := range form.questions {
		if a, ok := answers[q.ID]; !ok || q.Check(a) != nil {
			open = append(open, q)
		}
	}
	if len(open) > 0 {
		select {
		case p.asks <- open:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		select {
		case got := <-p.reply:
			if answers == nil {
				answers = map[string]any{}
			}
			maps.Copy(answers, got)
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return form.answer(answers), nil
}

// form is an elicitation as questions: one per field, or one yes/no
// question for a URL to visit.
type form struct {
	url       bool
	questions []tool.Question
	fields    []string // the field of each question
}

// formOf reads params: a form's fields become questions named after them
// (the second time a field is asked in a call, "FIELD.2"), typed by their
// schema (boolean, enum, number, text), with their title, description and
// default. A URL elicitation, one yes/no question. What a person reads of
// each question first (its preamble, the server's message, else its text)
// starts with asker, who asks.
func formOf(params *mcpsdk.ElicitParams, used map[string]int, asker string) (*form, error) {
	id := func(field string) string {
		used[field]++
		if n := used[field]; n > 1 {
			return fmt.Sprintf("%s.%d", field, n)
		}
		return field
	}
	message := clipMessage(params.Message)
	if params.Mode == "url" {
		return &form{url: true, questions: []tool.Question{{ID: id("open_url"), AnswerType: tool.Boolean,
			Text: fmt.Sprintf("%s%s\n\nOpen %s, then answer yes once done there.", asker, cmp.Or(message, "a page to visit."), params.URL)}}}, nil
	}
	var schema struct {
		Properties map[string]map[string]any `json:"properties"`
		Required   []string                  `json:"required"`
	}
	data, err := json.Marshal(params.RequestedSchema)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(data, &schema); err != nil {
		return nil, err
	}
	f := &form{}
	names := slices.SortedFunc(maps.Keys(schema.Properties), func(a, b string) int {
		// the required fields first, each group by name
		ra, rb := slices.Contains(schema.Required, a), slices.Contains(schema.Required, b)
		if ra != rb {
			if ra {
				return -1
			}
			return 1
		}
		return cmp.Compare(a, b)
	})
	for i, name := range names {
		q := question(name, schema.Properties[name])
		q.ID = id(name)
		if i == 0 && message != "" {
			msg := asker + message
			q.PreAmble = &msg
		} else {
			q.Text = asker + q.Text
		}
		f.questions = append(f.questions, q)
		f.fields = append(f.fields, name)
	}
	if len(f.questions) == 0 { // a confirmation without fields
		f.url = true
		f.questions = []tool.Question{{ID: id("confirm"), Text: asker + cmp.Or(message, "confirm? (it gave no message)"), AnswerType: tool.Boolean}}
	}
	return f, nil
}

// Bounds of a server's message as a question shows it, so that no
// message can push who asks (the line's start) out of a terminal's view.
const (
	maxMessageLines = 8
	maxMessageRunes = 600
)

// clipMessage is a server's message as its question shows it: blank lines
// at its ends dropped, runs of blank lines made one, and cut with "…" to
// [maxMessageLines] lines and [maxMessageRunes] runes.
func clipMessage(msg string) string {
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(strings.ReplaceAll(msg, "\r\n", "\n")), "\n") {
		if strings.TrimSpace(l) == "" && len(lines) > 0 && lines[len(lines)-1] == "" {
			continue
		}
		if strings.TrimSpace(l) == "" {
			l = ""
		}
		lines = append(lines, l)
	}
	cut := false
	if len(lines) > maxMessageLines {
		lines, cut = lines[:maxMessageLines], true
	}
	out := strings.Join(lines, "\n")
	if r := []rune(out); len(r) > maxMessageRunes {
		out, cut = string(r[:maxMessageRunes]), true
	}
	if cut {
		out = strings.TrimRight(out, " \n") + " …"
	}
	return out
}

// question is the question of one form field.
func question(name string, prop map[string]any) tool.Question {
	q := tool.Question{Text: name, AnswerType: tool.Text}
	title, _ := prop["title"].(string)
	desc, _ := prop["description"].(string)
	switch {
	case title != "" && desc != "":
		q.Text = title + ": " + desc
	case title != "":
		q.Text = title
	case desc != "":
		q.Text = desc
	}
	typ, _ := prop["type"].(string)
	switch {
	case typ == "boolean":
		q.AnswerType = tool.Boolean
	case typ == "number" || typ == "integer":
		q.AnswerType = tool.AnswerType{Kind: tool.AnswerNumber, Integer: typ == "integer",
			Minimum: float(prop["minimum"]), Maximum: float(prop["maximum"])}
	case typ == "array":
		items, _ := prop["items"].(map[string]any)
		if opts, titles := choices(items); len(opts) > 0 {
			q.AnswerType = tool.AnswerType{Kind: tool.AnswerSelect, Options: opts, Titles: titles, Multiple: true}
		}
	default:
		if opts, titles := choices(prop); len(opts) > 0 {
			q.AnswerType = tool.AnswerType{Kind: tool.AnswerSelect, Options: opts, Titles: titles}
			if names, ok := prop["enumNames"].([]any); ok && len(names) == len(opts) {
				q.AnswerType.Titles, q.AnswerType.LegacyTitles = strs(names), true
			}
		}
	}
	if d, ok := prop["default"]; ok {
		if n, isNum := d.(float64); isNum {
			d = json.Number(fmt.Sprint(n))
		}
		if q.Check(d) == nil {
			q.Default = d
		}
	}
	return q
}

// choices reads an enum, or oneOf/anyOf of {const, title}.
func choices(s map[string]any) (opts, titles []string) {
	if e, ok := s["enum"].([]any); ok {
		return strs(e), nil
	}
	for _, k := range []string{"oneOf", "anyOf"} {
		list, _ := s[k].([]any)
		for _, v := range list {
			m, _ := v.(map[string]any)
			c, ok := m["const"].(string)
			if !ok {
				return nil, nil
			}
			t, _ := m["title"].(string)
			opts, titles = append(opts, c), append(titles, cmp.Or(t, c))
		}
		if len(opts) > 0 {
			return opts, titles
		}
	}
	return nil, nil
}

func strs(v []any) []string {
	out := make([]string, 0, len(v))
	for _, s := range v {
		if s, ok := s.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func float(v any) *float64 {
	if f, ok := v.(float64); ok {
		return &f
	}
	return nil
}

// answer is the elicitation's result for the answers by question id.
func (f *form) answer(answers map[string]any) *mcpsdk.ElicitResult {
	if f.url {
		if yes, _ := answers[f.questions[0].ID].(bool); yes {
			return &mcpsdk.ElicitResult{Action: "accept"}
		}
		return &mcpsdk.ElicitResult{Action: "decline"}
	}
	content := make(map[string]any, len(f.questions))
	for i, q := range f.questions {
		a := answers[q.ID]
		if n, ok := a.(json.Number); ok {
			// A Go number: the go-sdk validates the content against the
			// requested schema as Go values, where a json.Number is a string.
			if i, err := n.Int64(); err == nil {
				a = i
			} else if f, err := n.Float64(); err == nil {
				a = f
			}
		}
		content[f.fields[i]] = a
	}
	return &mcpsdk.ElicitResult{Action: "accept", Content: content}
}

// outcomeOf is the outcome of a server's answer: the answer whole for the
// MCP faces, and its text, blocks and structured value for the others.
func outcomeOf(res *mcpsdk.CallToolResult) tool.Outcome {
	var blocks []tool.Block
	for _, c := range res.Content {
		switch c := c.(type) {
		case *mcpsdk.TextContent:
			blocks = append(blocks, tool.Block{Type: tool.BlockText, Text: c.Text})
		case *mcpsdk.ImageContent:
			blocks = append(blocks, tool.Block{Type: tool.BlockImage, Data: base64.StdEncoding.EncodeToString(c.Data), MimeType: c.MIMEType})
		case *mcpsdk.AudioContent:
			blocks = append(blocks, tool.Block{Type: tool.BlockAudio, Data: base64.StdEncoding.EncodeToString(c.Data), MimeType: c.MIMEType})
		case *mcpsdk.ResourceLink:
			blocks = append(blocks, tool.Block{Type: tool.BlockResourceLink, URI: c.URI, Name: c.Name, MimeType: c.MIMEType})
		case *mcpsdk.EmbeddedResource:
			if r := c.Resource; r != nil {
				b := tool.Block{Type: tool.BlockResource, URI: r.URI, MimeType: r.MIMEType, Text: r.Text}
				if r.Blob != nil {
					b.Data = base64.StdEncoding.EncodeToString(r.Blob)
				}
				blocks = append(blocks, b)
			}
		}
	}
	text := outcomeText(blocks)
	out := tool.Outcome{Type: tool.KindSuccess, Content: text, Blocks: blocks, Structured: res.StructuredContent}
	if text == "" && res.StructuredContent != nil {
		data, _ := tool.Marshal(res.StructuredContent)
		out.Content = string(data)
	}
	if res.IsError {
		out = tool.Outcome{Type: tool.KindError, Message: text}
		if text == "" {
			out.Message = "the server's tool reported an error without a text"
		}
	}
	// The answer whole, without what belongs to the exchange with the
	// server (its multi round-trip state, and the protocol's own _meta
	// keys, such as the serverInfo of the server's connection).
	var meta mcpsdk.Meta
	for k, v := range res.Meta {
		if !strings.HasPrefix(k, "io.modelcontextprotocol/") {
			if meta == nil {
				meta = mcpsdk.Meta{}
			}
			meta[k] = v
		}
	}
	whole := &mcpsdk.CallToolResult{Meta: meta, Content: res.Content, StructuredContent: res.StructuredContent, IsError: res.IsError}
	if whole.Content == nil {
		whole.Content = []mcpsdk.Content{}
	}
	if data, ok := textAnswer(whole); ok {
		out.MCP = data
	} else if data, err := json.Marshal(whole); err == nil {
		out.MCP = data
	}
	return out
}

// textAnswer encodes res as json.Marshal does when res is of the shape
// most tools answer with: text blocks alone, each without _meta or
// annotations, beside isError. ok is false for any other result. Each
// text is encoded by json.Marshal itself, so its escaping is the same.
// It spares a call the reflection of the go-sdk's encoder, which builds
// a wire copy of the result and of each block. TestTextAnswer and
// FuzzTextAnswer compare the two.
func textAnswer(res *mcpsdk.CallToolResult) ([]byte, bool) {
	if res.Meta != nil || res.StructuredContent != nil {
		return nil, false
	}
	size := len(`{"content":[],"isError":true}`)
	for _, c := range res.Content {
		t, ok := c.(*mcpsdk.TextContent)
		if !ok || t == nil || t.Meta != nil || t.Annotations != nil {
			return nil, false
		}
		size += len(`{"type":"text","text":""},`) + len(t.Text) + len(t.Text)/8
	}
	b := make([]byte, 0, size)
	b = append(b, `{"content":[`...)
	for i, c := range res.Content {
		if i > 0 {
			b = append(b, ',')
		}
		text, err := json.Marshal(c.(*mcpsdk.TextContent).Text)
		if err != nil {
			return nil, false
		}
		b = append(b, `{"type":"text","text":`...)
		b = append(b, text...)
		b = append(b, '}')
	}
	b = append(b, ']')
	if res.IsError {
		b = append(b, `,"isError":true`...)
	}
	return append(b, '}'), true
}
