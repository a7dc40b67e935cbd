package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/toolhost/toolhost/catalog"
)

// approve answers the approval of a call whose tool requires one (run =
// "ask"): --yes approves it. On a terminal the person is shown the call as
// the tool renders it and asked y/N (No by default, and at end of input).
// Otherwise nobody can approve, and the call is refused with an
// *approvalError (exit 2) naming --yes. --answer never approves: answers
// are for the tool's questions.
func (k *asker) approve(ctx context.Context, a catalog.Approval) (bool, error) {
	if k.yes {
		return true, nil
	}
	if !k.interactive {
		return false, &approvalError{a: a}
	}
	if k.in == nil {
		k.in = bufio.NewReader(k.a.stdin)
	}
	w := k.a.stderr
	fmt.Fprintf(w, "%s tool %q runs only once you approve it (%s). The call:\n%s\n",
		k.a.errOut.yellow("approval:"), a.Tool, a.Setting, "  "+indentLines(visible(a.Rendered), "  "))
	for {
		if err := ctx.Err(); err != nil {
			return false, err
		}
		fmt.Fprintf(w, "%s Run it? [y/N] ", k.a.errOut.bold("?"))
		line, err := k.in.ReadString('\n')
		switch strings.ToLower(strings.TrimSpace(line)) {
		case "y", "yes":
			return true, nil
		case "", "n", "no":
			if err != nil {
				fmt.Fprintln(w) // end of input: the line the prompt left open
			}
			return false, nil
		}
		if err != nil {
			fmt.Fprintln(w)
			return false, nil
		}
		fmt.Fprintln(w, "  answer y or n")
	}
}

// approvalError refuses a call that needs a person's approval where
// nobody can give it: no terminal, and no --yes.
type approvalError struct{ a catalog.Approval }

func (e *approvalError) Error() string {
	return fmt.Sprintf("tool %q runs only once a person approves the call (%s), and there is no terminal to ask on; nothing ran. The call:\n%s\n"+
		"To approve it, type the same command again with --yes.", e.a.Tool, e.a.Setting, "  "+indentLines(visible(e.a.Rendered), "  "))
}

// refusal is the exit-2 error of a call refused for want of approval, or
// nil when err is not one.
func refusal(name string, err error) error {
	var ae *approvalError
	if errors.As(err, &ae) {
		return &exitError{code: ExitFailure, err: fmt.Errorf("call %s: %w", name, ae)}
	}
	return nil
}

// visible makes text from a tool safe to show on a terminal while a person
// decides. Control characters other than newline and tab are written as Go
// escapes, \x1b say. They include escape sequences that could move the
// cursor, erase or recolour what is shown.
func visible(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == '\u2028' || r == '\u2029' || r == '\ufeff' ||
			(r >= '\u202a' && r <= '\u202e') || (r >= '\u2066' && r <= '\u2069'):
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
