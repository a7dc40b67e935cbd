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

// RequestFrom returns the request being served: context.root (the workspace
// root), the workspace and conversation ids, and the call with its
// arguments, answers and options. It returns nil when ctx does not come from
// [Run]. The request must not be modified.
func RequestFrom(ctx context.Context) *tool.Request {
	req, _ := ctx.Value(requestKey{}).(*tool.Request)
	return req
}

// Root returns the workspace root of the request being served
// (context.root), or "." when ctx does not come from [Run] or the request
// names none. The process runs in the root unless the user's configuration
// sets another working directory, so resolve the model's relative paths
// against Root.
func Root(ctx context.Context) string {
	if req := RequestFrom(ctx); req != nil && req.Context.Root != "" {
		return req.Context.Root
	}
	return "."
}

// NeedsInputError is the error the question helpers return when the request
// holds no answer yet. Return it from the tool function (wrapped or not):
// the run ends with a needs_input outcome asking Question, and the host runs
// the tool again with the answer in tool.answers.
type NeedsInputError struct {
	Question tool.Question
}

// Error returns "needs input: question ID: TEXT".
func (e *NeedsInputError) Error() string {
	return fmt.Sprintf("needs input: question %q: %s", e.Question.ID, e.Question.Text)
}

// Ask returns the answer to q held in the request's answers. When there is
// none it returns a [*NeedsInputError]; when the answer does not fit q's
// answer type it returns an error naming the question. Question ids must be
// unique within one tool, non-empty and without "." (hosts reject a
// question whose id is empty, and the JP assistant one with a "."): Ask
// returns an error naming such an id instead of asking.
func Ask(ctx context.Context, q tool.Question) (any, error) {
	if q.ID == "" || strings.Contains(q.ID, ".") {
		return nil, fmt.Errorf("sdk: invalid question id %q (question %q): want a non-empty id without '.'", q.ID, q.Text)
	}
	if req := RequestFrom(ctx); req != nil && req.Tool != nil {
		if a, ok := req.Tool.Answers[q.ID]; ok {
			if err := q.Check(a); err != nil {
				return nil, err
			}
			return a, nil
		}
	}
	return nil, &NeedsInputError{Question: q}
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
// is the answer a host uses when nobody can be asked; "" means none.
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

// AskSelect asks the user to pick one of options (answer type Select) and
// returns the choice. def is the answer a host uses when nobody can be
// asked; "" means none.
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
