package sdk

import (
	"context"
	"fmt"
	"strings"

	"github.com/toolhost/toolhost/tool"
)

type requestKey struct{}

func withRequest(ctx context.Context, req *tool.Request) context.Context {
	return context.WithValue(ctx, requestKey{}, req)
}

// RequestFrom returns the request being served. It holds context.root (the
// workspace root) and the workspace and conversation ids. It holds the call
// with its arguments, answers and options. It returns nil when ctx does not
// come from [Run]. The request must not be modified.
func RequestFrom(ctx context.Context) *tool.Request {
	req, _ := ctx.Value(requestKey{}).(*tool.Request)
	return req
}

// Root returns the workspace root of the request being served
// (context.root). It returns "." when ctx does not come from [Run] or the
// request names none. The process runs in the root unless the user's
// configuration sets another working directory. So resolve the model's
// relative paths against Root.
func Root(ctx context.Context) string {
	if req := RequestFrom(ctx); req != nil && req.Context.Root != "" {
		return req.Context.Root
	}
	return "."
}

// NeedsInputError is the error the question helpers return when the request
// holds no answer yet. Return it from the tool function, wrapped or not.
// The run ends with a needs_input outcome asking Question. The host runs
// the tool again with the answer in tool.answers.
type NeedsInputError struct {
	Question tool.Question
	// Questions, when not empty, are several questions answered together
	// (protocol v2, see [AskForm]). Question is the first of them. A request
	// of protocol v1 is asked them one at a time.
	Questions []tool.Question
}

// Error returns "needs input: question ID: TEXT", naming the first
// question.
func (e *NeedsInputError) Error() string {
	q := e.all()[0]
	if len(e.Questions) > 1 {
		return fmt.Sprintf("needs input: %d questions, the first %q: %s", len(e.Questions), q.ID, q.Text)
	}
	return fmt.Sprintf("needs input: question %q: %s", q.ID, q.Text)
}

// all returns the questions asked, at least one.
func (e *NeedsInputError) all() []tool.Question {
	if len(e.Questions) > 0 {
		return e.Questions
	}
	return []tool.Question{e.Question}
}

// Ask returns the answer to q held in the request's answers. When there is
// none it returns a [*NeedsInputError]. When the answer does not fit q's
// answer type it returns an error naming the question. Question ids must be
// unique within one tool, non-empty and without ".". Hosts reject a
// question whose id is empty, and the JP assistant one with a ".". For
// such an id Ask returns an error naming it instead of asking.
//
// The answer types Secret and Number are protocol v2. A request of protocol
// v1 cannot carry them, so Ask returns an error saying so. A v1 host would
// refuse the question.
func Ask(ctx context.Context, q tool.Question) (any, error) {
	a, ok, err := answer(ctx, q)
	if err != nil || ok {
		return a, err
	}
	return nil, &NeedsInputError{Question: q}
}

// answer returns the answer to q held in the request, reporting whether
// there is one. It returns the error of a question that cannot be asked.
func answer(ctx context.Context, q tool.Question) (any, bool, error) {
	if q.ID == "" || strings.Contains(q.ID, ".") {
		return nil, false, fmt.Errorf("sdk: invalid question id %q (question %q): want a non-empty id without '.'", q.ID, q.Text)
	}
	req := RequestFrom(ctx)
	if req != nil && req.Tool != nil {
		if a, ok := req.Tool.Answers[q.ID]; ok {
			if err := q.Check(a); err != nil {
				return nil, false, err
			}
			return a, true, nil
		}
	}
	if k := q.AnswerType.Kind; (k == tool.AnswerSecret || k == tool.AnswerNumber) && req != nil && req.Protocol != tool.Version2 {
		return nil, false, fmt.Errorf("question %q needs a %s answer, which protocol 1 cannot ask: use a host that speaks protocol 2 (such as toolhost), or supply the answer in advance", q.ID, k)
	}
	return nil, false, nil
}

// Confirm asks a yes/no question (answer type Boolean) and returns the
// answer. def is the answer a host uses when nobody can be asked.
//
//	ok, err := sdk.Confirm(ctx, "overwrite", "Overwrite a.txt?", false)
//	if err != nil {
//		return "", err // ends the run with needs_input until answered
//	}
func Confirm(ctx context.Context, id, text string, def bool) (bool, error) {
	a, err := Ask(ctx, tool.Question{ID: id, Text: text, AnswerType: tool.Boolean, Default: def})
	if err != nil {
		return false, err
	}
	return a.(bool), nil
}

// AskText asks for free text (answer type Text) and returns the answer. def
// is the answer a host uses when nobody can be asked. "" means none.
func AskText(ctx context.Context, id, text, def string) (string, error) {
	q := tool.Question{ID: id, Text: text, AnswerType: tool.Text}
	if def != "" {
		q.Default = def
	}
	a, err := Ask(ctx, q)
	if err != nil {
		return "", err
	}
	return a.(string), nil
}

// AskSelect asks the user to pick one of options (answer type Select). It
// returns the choice. def is the answer a host uses when nobody can be
// asked. "" means none.
func AskSelect(ctx context.Context, id, text string, options []string, def string) (string, error) {
	q := tool.Question{ID: id, Text: text, AnswerType: tool.Select(options...)}
	if def != "" {
		q.Default = def
	}
	a, err := Ask(ctx, q)
	if err != nil {
		return "", err
	}
	return a.(string), nil
}

// AskSecret asks for a secret text (answer type Secret) and returns the
// answer. A host never logs nor echoes it, and reads it without showing it.
// Secrets have no default. Keep the answer out of the tool's output and
// stderr too.
func AskSecret(ctx context.Context, id, text string) (string, error) {
	a, err := Ask(ctx, tool.Question{ID: id, Text: text, AnswerType: tool.Secret})
	if err != nil {
		return "", err
	}
	return a.(string), nil
}
