package cli

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/urfave/cli/v2"

	"github.com/toolhost/toolhost/audit"
	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/resolver"
	"github.com/toolhost/toolhost/tool"
)

// newCallCommand is `toolhost call`.
func newCallCommand(a *app) *cli.Command {
	return &cli.Command{
		Name:         "call",
		BashComplete: a.completeToolNames,
		Usage:        "call a tool and print its result",
		ArgsUsage:    "NAME [key=value…]",
		Description: "Arguments come as --args JSON or key=value pairs (pairs win); each value is\n" +
			"typed by the tool's schema: integer, number, boolean, array and object are\n" +
			"parsed (an array also takes a,b,c), strings are kept as written.\n\n" +
			"When the tool asks a question, the answer comes from --answer id=value, else\n" +
			"from you on a terminal, else from the question's default; with none of these\n" +
			"the question is printed and the exit status is 1.\n\n" +
			"A tool that runs only once a person approves it (run = \"ask\") shows the call\n" +
			"and asks y/N on a terminal; without one it is refused (exit 2) unless --yes\n" +
			"is given. --answer never approves a call.\n\n" +
			"Exit status: 0 success, 1 the tool reported an error or exited non-zero (or a\n" +
			"question went unanswered), 2 usage, configuration or invocation failure.\n" +
			"`toolhost call NAME --help` lists the tool's parameters.\n\n" +
			"Examples:\n   toolhost call greet name=Ada\n   toolhost call search --args '{\"pattern\":\"TODO\",\"limit\":5}'\n" +
			"   toolhost call rm path=a.txt --answer confirm=yes --json",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "args", Usage: "the arguments as a JSON `OBJECT`"},
			&cli.StringSliceFlag{Name: "answer", Usage: "answer question `ID=VALUE` when the tool asks it (repeatable)"},
			&cli.BoolFlag{Name: "json", Usage: "print the outcome object"},
			callAuditFlag,
			&cli.BoolFlag{Name: "yes", Usage: "approve the call of a tool that runs only once a person approves it (run = \"ask\"), without asking: for a person typing the command, never for a script or a model"},
			// Run turns `call NAME --help` into `call --tool-help NAME`.
			&cli.BoolFlag{Name: "tool-help", Hidden: true},
		},
		Action: func(c *cli.Context) error {
			if c.Bool("tool-help") {
				if err := checkArgs(c, 1, -1, "NAME --help"); err != nil {
					return err
				}
				return a.toolHelp(c, c.Args().First())
			}
			if err := checkArgs(c, 1, -1, "NAME [key=value…]"); err != nil {
				return err
			}
			opts := &callOptions{Name: c.Args().First(), ArgsJSON: c.String("args"), Pairs: c.Args().Tail(),
				Answers: c.StringSlice("answer"), JSON: c.Bool("json"), Yes: c.Bool("yes")}
			return callRun(c, a, opts)
		},
	}
}

// callOptions are what `toolhost call` was given.
type callOptions struct {
	Name     string   // the tool
	ArgsJSON string   // --args
	Pairs    []string // the key=value arguments
	Answers  []string // --answer ID=VALUE
	JSON     bool     // --json
	Yes      bool     // --yes
}

// callRun calls a tool, asking its questions, and prints its outcome.
func callRun(c *cli.Context, a *app, opts *callOptions) error {
	answers, err := parseAnswerFlags(opts.Answers)
	if err != nil {
		return err
	}
	name := opts.Name
	if a.auditLog, err = a.openCallAudit(c); err != nil { // callaudit.go
		return err
	}
	defer a.auditLog.Close()
	cat, err := a.toolCatalog(c, name)
	if err != nil {
		return err
	}
	t, err := a.findEnabled(cat, name)
	if err != nil {
		return err
	}
	args, err := parseArguments(opts.ArgsJSON, opts.Pairs, schemaParams(t.InputSchema))
	if err != nil {
		return forCommand(err, "toolhost call "+name)
	}
	a.note(cat)
	ask := &asker{a: a, answers: answers, interactive: a.interactive(), yes: opts.Yes}
	events := a.eventPrinter(opts.JSON)
	out, err := cat.Call(audit.WithCaller(c.Context, audit.Caller{Face: "cli"}), name, args, &catalog.CallOptions{Ask: ask.ask, OnEvent: events.print, Approve: ask.approve})
	events.done()
	if err := refusal(name, err); err != nil {
		return err
	}
	if err != nil {
		var u *unansweredError
		if errors.As(err, &u) {
			out = tool.Ask(u.q)
		} else {
			var e *exitError
			if errors.As(err, &e) { // from the asker: a bad --answer
				return forCommand(e, "toolhost call "+name)
			}
			if c.Context.Err() != nil {
				return &exitError{code: ExitFailure, err: fmt.Errorf("call %s: interrupted", name)}
			}
			if re := (*catalog.Error)(nil); errors.As(err, &re) && re.Tool == name {
				return &exitError{code: ExitFailure, err: err} // it starts with tool "NAME" already
			}
			return &exitError{code: ExitFailure, err: fmt.Errorf("call %s: %w", name, err)}
		}
	}
	if out.Type == tool.KindNeedsInput && out.Question != nil && !slices.Contains(ask.asked, out.Question.ID) {
		ask.asked = append(ask.asked, out.Question.ID) // asked, but not through ask (a dynamic tool)
	}
	err = a.printOutcome(out, opts.JSON, servedByServer(cat, name))
	ask.reportUnused()
	return err
}

// printOutcome prints a call's outcome and returns the exit status for it:
// nil for success, exit 1 for an error or an unanswered question.
// fromServer says the tool is an MCP server's or a remote catalog's. The
// questions of such a tool say who asks themselves (see [questionText]).
func (a *ioStreams) printOutcome(out tool.Outcome, asJSON, fromServer bool) error {
	if asJSON {
		if err := writeJSON(a.stdout, out); err != nil {
			return err
		}
		if out.Type == tool.KindSuccess {
			return nil
		}
		return silent(ExitToolError)
	}
	switch out.Type {
	case tool.KindSuccess:
		text := out.Content
		if text != "" && !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		io.WriteString(a.stdout, a.outText(text)) // one write
		return nil
	case tool.KindError:
		fmt.Fprintf(a.stderr, "%s: %s\n", a.errOut.red("error"), a.errText(out.Message))
		for _, t := range out.Trace {
			fmt.Fprintf(a.stderr, "  caused by: %s\n", a.errText(t))
		}
		if out.Transient {
			fmt.Fprintln(a.stderr, "  (transient: the same call may succeed if retried)")
		}
		return silent(ExitToolError)
	case tool.KindNeedsInput:
		q := out.Question
		if q == nil {
			q = &tool.Question{}
		}
		fmt.Fprintf(a.stderr, "%s: %s\n", a.errOut.yellow("question"), indentLines(a.errText(questionText(*q, fromServer)), "  "))
		fmt.Fprintf(a.stderr, "  answer with --answer %s\n", a.errText(q.ID+"="+answerHint(*q)))
		return silent(ExitToolError)
	}
	return &exitError{code: ExitFailure, err: fmt.Errorf("outcome of unknown type %q", out.Type)}
}

// servedByServer reports whether the tool name is served by an MCP server or
// a remote catalog (its source is "mcp.NAME" or "remote.NAME"), whose
// questions say who asks.
func servedByServer(cat *resolver.Catalog, name string) bool {
	src, _ := cat.SourceOf(name)
	return strings.HasPrefix(src, "mcp.") || strings.HasPrefix(src, "remote.")
}

// toolHelp prints `call NAME --help`: the usage line and the tool's
// parameters from its schema.
func (a *app) toolHelp(c *cli.Context, name string) error {
	cat, err := a.toolCatalog(c, name)
	if err != nil {
		return err
	}
	t, err := a.findTool(cat, name)
	if err != nil {
		return err
	}
	a.note(cat)
	w := a.stdout
	fmt.Fprintf(w, "%s\n\n", a.out.bold("USAGE"))
	yes := ""
	if t.RequiresApproval {
		yes = " [--yes]"
	}
	fmt.Fprintf(w, "  toolhost call %s [key=value…] [--args JSON] [--answer ID=VALUE] [--json]%s%s\n\n", t.Name, yes, a.clientSuffix())
	// An MCP tool's summary is its description's first paragraph: shown once.
	summary := t.Summary != "" && !strings.HasPrefix(t.Description, t.Summary)
	if summary {
		fmt.Fprintf(w, "  %s\n", a.outText(t.Summary))
	}
	if t.Description != "" {
		if summary {
			fmt.Fprintln(w)
		}
		writeIndented(w, a.outText(t.Description), "  ")
	}
	fmt.Fprintf(w, "\n%s\n", a.out.bold("PARAMETERS"))
	a.writeParams(w, t.InputSchema, "  ")
	if rows := paramRows(t.InputSchema); len(rows) > 0 {
		var ex []string
		for _, r := range rows {
			if r.Required {
				ex = append(ex, r.Name+"="+exampleValue(r.Type))
			}
		}
		// a parameter's name is the tool's text (an MCP server's schema may name it anything)
		fmt.Fprintf(w, "\n%s\n  toolhost call %s %s%s\n", a.out.bold("EXAMPLE"), t.Name, a.outText(strings.Join(ex, " ")), a.clientSuffix())
	}
	if t.Examples != "" {
		fmt.Fprintf(w, "\n%s\n", a.out.bold("EXAMPLES"))
		writeIndented(w, a.outText(t.Examples), "  ")
	}
	return nil
}

func exampleValue(typ string) string {
	switch {
	case strings.HasPrefix(typ, "integer"), strings.HasPrefix(typ, "number"):
		return "1"
	case strings.HasPrefix(typ, "boolean"):
		return "true"
	case strings.HasPrefix(typ, "array"):
		return "a,b"
	case strings.HasPrefix(typ, "object"):
		return `'{"k":"v"}'`
	}
	return "…"
}

// normalize round-trips args through JSON, so values typed from key=value
// pairs have the same Go types as values decoded from --args.
func normalize(args map[string]any) (map[string]any, error) {
	b, err := tool.Marshal(args)
	if err != nil {
		return nil, err
	}
	out := map[string]any{}
	return out, decodeJSON(string(b), &out)
}

// eventPrinter shows a protocol v2 tool's events (tool.Event) as they
// arrive: with --json, each as one line of compact JSON on stdout before
// the outcome (a stream a program reads line by line). Otherwise, on a
// terminal stderr, a progress line that the next event or the end of the
// call replaces, and log messages as lines of their own.
type eventPrinter struct {
	a      *app
	asJSON bool
	term   bool
	mu     sync.Mutex
	shown  bool // a progress line is on the terminal
}

func (a *app) eventPrinter(asJSON bool) *eventPrinter {
	return &eventPrinter{a: a, asJSON: asJSON, term: isTerminal(a.stderr) && a.opts.Getenv("TERM") != "dumb"}
}

func (p *eventPrinter) print(e tool.Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.asJSON {
		if data, err := tool.Marshal(e); err == nil {
			if p.a.termOut {
				data = escapeJSON(data)
			}
			fmt.Fprintf(p.a.stdout, "%s\n", data)
		}
		return
	}
	if !p.term {
		return
	}
	switch e.Type {
	case tool.EventProgress:
		line := fmt.Sprintf("%g", e.Progress)
		if e.Total != nil {
			line += fmt.Sprintf("/%g", *e.Total)
		}
		if e.Message != "" {
			line += " " + e.Message
		}
		fmt.Fprintf(p.a.stderr, "\r\x1b[K%s", p.a.errText(line))
		p.shown = true
	case tool.EventLog:
		if p.shown {
			fmt.Fprint(p.a.stderr, "\r\x1b[K")
			p.shown = false
		}
		fmt.Fprintf(p.a.stderr, "%s: %s\n", p.a.errText(e.Level), p.a.errText(e.Message))
	}
}

// done erases the progress line, if one is shown.
func (p *eventPrinter) done() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown {
		fmt.Fprint(p.a.stderr, "\r\x1b[K")
		p.shown = false
	}
}
