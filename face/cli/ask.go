package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/toolhost/toolhost/internal/suggest"
	"github.com/toolhost/toolhost/tool"
)

// questionText is what the hint of an unanswered question says of q: who
// asks, then what the prompt would show, its preamble first (a line of its
// own) and then its text. A local tool's question starts "the tool asks: ".
// A server's starts with who asks already (`MCP server "NAME" asks: ` or
// `remote catalog "NAME" asks: `, in its preamble when the server gave a
// message, else in its text: package internal/source/servers puts it there), so
// the hint says who asks as the prompt does, once.
func questionText(q tool.Question, fromServer bool) string {
	text := q.Text
	if q.PreAmble != nil && *q.PreAmble != "" {
		text = strings.TrimRight(*q.PreAmble, "\n") + "\n" + text
	}
	if fromServer {
		return text
	}
	return "the tool asks: " + text
}

// answerHint shows what an answer to q looks like.
func answerHint(q tool.Question) string {
	switch q.AnswerType.Kind {
	case tool.AnswerBoolean:
		return "yes|no"
	case tool.AnswerSelect:
		return strings.Join(q.AnswerType.Options, "|")
	case tool.AnswerSecret:
		return "secret, not shown"
	case tool.AnswerNumber:
		if q.AnswerType.Integer {
			return "whole number"
		}
		return "number"
	}
	return "TEXT"
}

// interactive reports whether questions can be asked on stdin.
func (a *app) interactive() bool {
	return a.opts.Interactive || (isTerminal(a.stdin) && isTerminal(a.stderr))
}

// unansweredError reports a question that had no --answer, no terminal and
// no default: `call` prints it and exits 1.
type unansweredError struct{ q tool.Question }

func (e *unansweredError) Error() string {
	return fmt.Sprintf("question %q has no answer: %s", e.q.ID, e.q.Text)
}

// asker answers a tool's questions for `call`: from --answer, then the
// terminal, then the question's default.
type asker struct {
	a           *app
	answers     map[string]string
	interactive bool
	yes         bool // --yes: approve a call that needs approval (approve.go)
	in          *bufio.Reader
	asked       []string // question ids, in the order asked
}

func (k *asker) ask(ctx context.Context, q tool.Question) (any, error) {
	if !slices.Contains(k.asked, q.ID) {
		k.asked = append(k.asked, q.ID)
	}
	if raw, ok := k.answers[q.ID]; ok {
		v, err := parseAnswer(raw, q)
		if err != nil {
			return nil, usageErrorf("--answer %s: %v", q.ID, err)
		}
		return v, nil
	}
	if k.interactive {
		return k.prompt(ctx, q)
	}
	if q.Default != nil {
		return q.Default, nil
	}
	return nil, &unansweredError{q: q}
}

// reportUnused points out, on stderr, each --answer whose question the
// tool never asked (a misspelt id, most likely), with the ids it did ask.
// Answers given up front for questions asked later are used when asked,
// so only what is left at the end of the call is reported.
func (k *asker) reportUnused() {
	asked := "none"
	if len(k.asked) > 0 {
		quoted := make([]string, len(k.asked))
		for i, id := range k.asked {
			quoted[i] = strconv.Quote(id)
		}
		asked = strings.Join(quoted, ", ")
	}
	for _, id := range slices.Sorted(maps.Keys(k.answers)) {
		if slices.Contains(k.asked, id) {
			continue
		}
		hint := ""
		if s := suggest.Nearest(id, k.asked, max(2, len(id)/3)); s != "" && len(k.asked) > 1 {
			hint = fmt.Sprintf(" (did you mean %q?)", s)
		}
		fmt.Fprintf(k.a.stderr, "%s: --answer %s: the tool asked no question %q; it asked %s%s\n",
			k.a.errOut.yellow("warning"), id, id, asked, hint)
	}
}

// prompt asks q on stderr and reads the answer from stdin, asking again
// after an answer that does not fit. An empty line takes the default.
func (k *asker) prompt(ctx context.Context, q tool.Question) (any, error) {
	if k.in == nil {
		k.in = bufio.NewReader(k.a.stdin)
	}
	w := k.a.stderr
	if q.PreAmble != nil && *q.PreAmble != "" {
		fmt.Fprintln(w, k.a.errText(*q.PreAmble))
	}
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		hint := answerHint(q)
		if q.AnswerType.Kind == tool.AnswerSelect {
			for i, o := range q.AnswerType.Options {
				if q.AnswerType.Titles != nil {
					o = fmt.Sprintf("%s (%s)", q.AnswerType.Titles[i], o)
				}
				fmt.Fprintf(w, "  %d) %s\n", i+1, k.a.errText(o))
			}
			hint = fmt.Sprintf("1-%d", len(q.AnswerType.Options))
			if q.AnswerType.Multiple {
				hint += ", several separated by commas"
			}
		}
		if q.Default != nil {
			hint += ", default " + defaultText(q.Default)
		}
		fmt.Fprintf(w, "%s %s [%s] ", k.a.errOut.bold("?"), k.a.errText(q.Text), k.a.errText(hint))
		restore := func() {}
		if f, ok := k.a.stdin.(*os.File); ok && q.AnswerType.Kind == tool.AnswerSecret && isTerminal(f) {
			restore = noEcho(f)
		}
		line, err := k.in.ReadString('\n')
		restore()
		line = strings.TrimRight(line, "\r\n")
		if err != nil && (line == "" || !errors.Is(err, io.EOF)) {
			fmt.Fprintln(w)
			if q.Default != nil {
				return q.Default, nil
			}
			return nil, &unansweredError{q: q}
		}
		if line == "" && q.Default != nil {
			return q.Default, nil
		}
		v, perr := parseAnswer(line, q)
		if perr == nil {
			return v, nil
		}
		fmt.Fprintf(w, "  %s\n", k.a.errText(perr.Error()))
		if err != nil { // EOF after a bad answer: nothing more to read
			return nil, &unansweredError{q: q}
		}
	}
}

func defaultText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	if b, ok := v.(bool); ok {
		if b {
			return "yes"
		}
		return "no"
	}
	return compactJSON(v)
}
