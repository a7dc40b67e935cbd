package cli

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/toolhost/toolhost/audit"
)

func (a *app) auditCommand() *cli.Command {
	return &cli.Command{
		Name:  "audit",
		Usage: "list the calls serve recorded in the audit log",
		Description: "Reads the audit log (docs/audit.md) that `serve` writes, oldest first, its\n" +
			"rotated files included, and prints one line per call. With --json, prints the\n" +
			"log's lines as written. With -f, keeps printing calls as they are logged, until\n" +
			"interrupted. A torn last line (the writer was killed mid-line) is skipped with a\n" +
			"warning.\n\n" +
			"Examples:\n   toolhost audit\n   toolhost audit --tool grep --since 1h\n" +
			"   toolhost audit --json --since 2026-11-25 | jq .arguments\n   toolhost audit -f",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "tool", Usage: "only the calls of `TOOL`"},
			&cli.StringFlag{Name: "since", Usage: "only the calls since `WHEN`: a duration back from now (90m, 24h) or a time (2026-11-25, 2026-11-25T15:04:05Z)"},
			&cli.BoolFlag{Name: "json", Usage: "print the log's JSON lines as written"},
			&cli.BoolFlag{Name: "follow", Aliases: []string{"f"}, Usage: "keep printing calls as they are logged"},
			&cli.StringFlag{Name: "file", Usage: "read the audit log `FILE` (default: the one serve writes, " + auditDefaultHelp + ")"},
		},
		Action: a.auditAction,
	}
}

const auditDefaultHelp = "$XDG_STATE_HOME/toolhost/audit.jsonl or ~/.local/state/toolhost/audit.jsonl"

func (a *app) auditAction(c *cli.Context) error {
	if err := checkArgs(c, 0, 0, "[--tool TOOL] [--since WHEN] [--json] [-f]"); err != nil {
		return err
	}
	filter := &audit.Filter{Tool: c.String("tool")}
	if s := c.String("since"); s != "" {
		t, err := parseSince(s, time.Now())
		if err != nil {
			return commandUsageErrorf(c.Command.HelpName, "audit: --since %q: %v", s, err)
		}
		filter.Since = t
	}
	path := c.String("file")
	if path == "" {
		path = audit.DefaultPath(a.opts.Getenv)
		if path == "" {
			return commandUsageErrorf(c.Command.HelpName, "audit: no audit log to read: neither XDG_STATE_HOME nor HOME is set; give --file FILE")
		}
	}
	p := &auditPrinter{a: a, json: c.Bool("json")}
	files := audit.Files(path)
	if c.Bool("follow") {
		// The rotated files now, then the current one from its start on.
		if len(files) > 0 && files[len(files)-1] == path {
			files = files[:len(files)-1]
		}
	} else if len(files) == 0 {
		return &exitError{code: ExitFailure, err: fmt.Errorf("audit: %s does not exist: serve writes it (unless given --audit off or another --audit FILE; then give --file FILE)", path)}
	}
	for _, f := range files {
		if err := p.file(f, filter); err != nil {
			return err
		}
	}
	if err := p.flush(); err != nil {
		return err
	}
	if !c.Bool("follow") {
		if p.n == 0 && !p.json {
			fmt.Fprintln(a.stderr, "no calls recorded"+p.matching(filter))
		}
		return nil
	}
	return audit.Follow(c.Context, path, filter, func(line []byte, r *audit.Record) error {
		p.print(line, r)
		return p.flush()
	})
}

// parseSince reads --since: a duration back from now, an RFC 3339 time, or
// a date (midnight, local time).
func parseSince(s string, now time.Time) (time.Time, error) {
	if d, err := time.ParseDuration(s); err == nil {
		if d < 0 {
			return time.Time{}, errors.New("a duration back from now is positive, such as 90m or 24h")
		}
		return now.Add(-d), nil
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, nil
	}
	if t, err := time.ParseInLocation("2006-01-02", s, time.Local); err == nil {
		return t, nil
	}
	return time.Time{}, errors.New("want a duration (90m, 24h), a date (2026-11-25) or a time (2026-11-25T15:04:05Z)")
}

// auditPrinter prints audit lines as rows aligned like `list`, or as the
// JSON lines themselves.
type auditPrinter struct {
	a     *app
	json  bool
	tw    *table
	n     int // calls printed
	title bool
}

func (p *auditPrinter) file(name string, filter *audit.Filter) error {
	f, err := os.Open(name)
	if err != nil {
		return &exitError{code: ExitFailure, err: fmt.Errorf("audit: %w", err)}
	}
	defer f.Close()
	s := audit.NewScanner(f, filter)
	for s.Scan() {
		p.print(s.Line(), s.Record())
	}
	if err := s.Err(); err != nil {
		return &exitError{code: ExitFailure, err: fmt.Errorf("audit: %s: %w", name, err)}
	}
	warn := p.a.errOut.yellow("warning")
	if n := s.Skipped(); n > 0 {
		fmt.Fprintf(p.a.stderr, "%s: %s: skipped %d %s that %s not audit lines\n", warn, name, n, plural(n, "line", "lines"), plural(n, "is", "are"))
	}
	if t := s.Torn(); t != nil {
		fmt.Fprintf(p.a.stderr, "%s: %s ends with a torn line (%d bytes, no newline), skipped: its writer stopped in the middle of it\n", warn, name, len(t))
	}
	return nil
}

func (p *auditPrinter) print(line []byte, r *audit.Record) {
	p.n++
	if p.json {
		out := append(append([]byte(nil), line...), '\n')
		if p.a.termOut && !p.a.raw {
			out = escapeJSON(out)
		}
		p.a.stdout.Write(out)
		return
	}
	if p.tw == nil {
		p.tw = newTable(p.a.stdout)
	}
	if !p.title {
		p.title = true
		row(p.tw, "TIME", "TOOL", "FACE", "CLIENT", "OUTCOME", "EXIT", "DURATION", "APPROVAL", "ARGUMENTS")
	}
	exit := "-"
	if r.ExitStatus != nil {
		exit = strconv.Itoa(*r.ExitStatus)
	}
	approval := "-"
	if r.Approval.Decision != "" {
		approval = r.Approval.Decision
		if r.Approval.By != "" {
			approval += " (" + r.Approval.By + ")"
		}
	}
	outcome := p.a.outText(r.Outcome)
	if r.Outcome == audit.OutcomeSuccess { // every outcome coloured: the codes keep the column aligned
		outcome = p.a.out.green(outcome)
	} else {
		outcome = p.a.out.yellow(outcome)
	}
	if r.Sandbox.Denial != "" {
		outcome += " (sandbox denied)"
	}
	row(p.tw,
		r.Time.Local().Format("2006-01-02 15:04:05"),
		p.a.outText(r.Tool),
		orDash(r.Face),
		p.a.outText(orDash(clientText(r.Client))),
		outcome,
		exit,
		r.Duration.Round(time.Millisecond).String(),
		approval,
		p.a.outText(orDash(cut(string(r.Arguments), 60))),
	)
}

// flush writes the rows printed so far.
func (p *auditPrinter) flush() error {
	if p.tw == nil {
		return nil
	}
	return p.tw.Flush()
}

func (p *auditPrinter) matching(f *audit.Filter) string {
	var parts []string
	if f.Tool != "" {
		parts = append(parts, "of "+f.Tool)
	}
	if !f.Since.IsZero() {
		parts = append(parts, "since "+f.Since.Local().Format("2006-01-02 15:04:05"))
	}
	if len(parts) == 0 {
		return ""
	}
	return " " + strings.Join(parts, " ")
}

// clientText names a client in one cell: name/version, then the address
// and token id when known.
func clientText(c audit.Client) string {
	var parts []string
	if c.Name != "" {
		s := c.Name
		if c.Version != "" {
			s += "/" + c.Version
		}
		parts = append(parts, s)
	}
	if c.Addr != "" {
		parts = append(parts, c.Addr)
	}
	if c.TokenID != "" {
		parts = append(parts, c.TokenID)
	}
	return strings.Join(parts, " ")
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// cut keeps the first n runes of s, marking a cut with "…".
func cut(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
