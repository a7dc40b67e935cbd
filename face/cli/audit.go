package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/urfave/cli/v2"

	"github.com/toolhost/toolhost/audit"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/internal/bytesize"
)

// newAuditCommand is `toolhost audit`.
func newAuditCommand(a *app) *cli.Command {
	return &cli.Command{
		Name:  "audit",
		Usage: "list the calls serve and call recorded in the audit log",
		Description: "Reads the audit log (docs/audit.md) that `serve` and `call` write, oldest\n" +
			"first, its rotated files included, and prints one line per call, with the\n" +
			"workspace that served it (one log holds every workspace's calls: select one\n" +
			"with --workspace). With --json, prints the log's lines as written. With -f,\n" +
			"keeps printing calls as they are logged, in columns of fixed width, until\n" +
			"interrupted. A torn last line (the writer was killed mid-line) is skipped with\n" +
			"a warning.\n\n" +
			"Examples:\n   toolhost audit\n   toolhost audit --tool grep --since 1h\n   toolhost audit --workspace .\n" +
			"   toolhost audit --json --since 2026-11-25 | jq .arguments\n   toolhost audit -f",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "tool", Usage: "only the calls of `TOOL`"},
			&cli.StringFlag{Name: "workspace", Aliases: []string{"w"}, Usage: "only the calls served by the workspace at `DIR` (. for this one; the log holds every workspace's calls)"},
			&cli.StringFlag{Name: "since", Usage: "only the calls since `WHEN`: a duration back from now (90m, 24h) or a time (2026-11-25, 2026-11-25T15:04:05Z)"},
			&cli.BoolFlag{Name: "json", Usage: "print the log's JSON lines as written"},
			&cli.BoolFlag{Name: "follow", Aliases: []string{"f"}, Usage: "keep printing calls as they are logged"},
			&cli.StringFlag{Name: "file", Usage: "read the audit log `FILE` (default: the one serve writes, " + auditDefaultHelp + ")"},
		},
		Action: func(c *cli.Context) error {
			if err := checkArgs(c, 0, 0, "[--tool TOOL] [--workspace DIR] [--since WHEN] [--json] [-f]"); err != nil {
				return err
			}
			opts := &auditOptions{Tool: c.String("tool"), Workspace: c.String("workspace"), Since: c.String("since"), JSON: c.Bool("json"), Follow: c.Bool("follow"), File: c.String("file")}
			return auditRun(c, a, opts)
		},
	}
}

const auditDefaultHelp = "$XDG_STATE_HOME/toolhost/audit.jsonl or ~/.local/state/toolhost/audit.jsonl"

// auditOptions are what `toolhost audit` was given.
type auditOptions struct {
	Tool      string // --tool
	Workspace string // --workspace
	Since     string // --since
	JSON      bool   // --json
	Follow    bool   // --follow
	File      string // --file
}

// auditRun prints the calls the audit log holds, and with --follow
// those logged after.
func auditRun(c *cli.Context, a *app, opts *auditOptions) error {
	filter := &audit.Filter{Tool: opts.Tool}
	if dir := opts.Workspace; dir != "" {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return &exitError{code: ExitFailure, err: err}
		}
		filter.Workspace = abs
		if ws, ok := config.WorkspaceDir(abs); ok { // a directory inside it: its root, as toolhost finds it
			filter.Workspace = filepath.Dir(filepath.Dir(ws))
		}
	}
	if s := opts.Since; s != "" {
		t, err := parseSince(s, time.Now())
		if err != nil {
			return commandUsageErrorf(c.Command.HelpName, "audit: --since %q: %v", s, err)
		}
		filter.Since = t
	}
	path := opts.File
	if path == "" {
		path = audit.DefaultPath(a.opts.Getenv)
		if path == "" {
			return commandUsageErrorf(c.Command.HelpName, "audit: no audit log to read: neither XDG_STATE_HOME nor HOME is set; give --file FILE")
		}
	}
	p := &auditPrinter{a: a, json: opts.JSON, follow: opts.Follow}
	files := audit.Files(path)
	if opts.Follow {
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
	if !opts.Follow {
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
// JSON lines themselves. Following (-f), rows are printed as they come,
// so they cannot be aligned on the widest cell: each column then has a
// fixed width ([followWidths]) and a longer cell is cut.
type auditPrinter struct {
	a      *app
	json   bool
	follow bool
	tw     *table
	n      int // calls printed
	title  bool
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
		fmt.Fprintf(p.a.stderr, "%s: %s: skipped %d %s\n", warn, name, n, plural(n, "line that is not an audit line", "lines that are not audit lines"))
	}
	if t := s.Torn(); t != nil {
		fmt.Fprintf(p.a.stderr, "%s: %s ends with a torn line (%d %s, no newline), skipped: its writer stopped in the middle of it\n", warn, name, len(t), plural(len(t), "byte", "bytes"))
	}
	return nil
}

// auditColumns are the columns of audit's rows, and followWidths their
// widths, in runes, when following. The last column is not padded.
var (
	auditColumns = []string{"TIME", "TOOL", "FACE", "CLIENT", "OUTCOME", "EXIT", "DURATION", "APPROVAL", "WORKSPACE", "ARGUMENTS"}
	followWidths = []int{19, 20, 4, 24, 17, 4, 8, 16, 24, 60}
)

// The labels of the outcomes of calls that did not run for a reason the
// outcome type alone does not say.
const (
	labelAwaiting    = "awaiting approval" // host_error, approval asked: the person answers in a later request
	labelRateLimited = "rate limited"      // refused by rate_limit_per_minute
	sandboxDenied    = " (sandbox denied)"
)

// outcomeLabel is how audit shows a call's outcome.
func outcomeLabel(r *audit.Record) string {
	switch {
	case r.Outcome == audit.OutcomeHostError && r.Approval.Decision == audit.DecisionAsked:
		return labelAwaiting
	case r.Outcome == audit.OutcomeRateLimited:
		return labelRateLimited
	}
	return r.Outcome
}

// cutLabel is what audit adds to the outcome of a call whose result the
// face cut (the MCP face, to max_output): what the client got of the
// whole. It is "" for a result sent whole.
func cutLabel(c audit.Cut) string {
	if c == (audit.Cut{}) {
		return ""
	}
	return fmt.Sprintf(" (cut: %s of %s sent)", bytesize.Format(c.Kept), bytesize.Format(c.Kept+c.LeftOut))
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
	outcome := outcomeLabel(r)
	if r.Sandbox.Denial != "" {
		outcome += sandboxDenied
	}
	outcome += cutLabel(r.Cut)
	// Every cell but the time and duration comes from the log's bytes,
	// which any program that can write the file may have written.
	cells := []string{
		r.Time.Local().Format("2006-01-02 15:04:05"),
		p.cell(r.Tool),
		p.cell(orDash(r.Face)),
		p.cell(orDash(clientText(r.Client))),
		p.cell(outcome),
		exit,
		r.Duration.Round(time.Millisecond).String(),
		p.cell(approval),
		p.cell(orDash(workspaceText(r.Workspace))),
		p.cell(orDash(cut(string(r.Arguments), 60))),
	}
	colour := p.a.out.yellow
	if r.Outcome == audit.OutcomeSuccess {
		colour = p.a.out.green
	}
	if p.follow {
		if !p.title {
			p.title = true
			fmt.Fprintln(p.a.stdout, fixedRow(auditColumns, nil))
		}
		fmt.Fprintln(p.a.stdout, fixedRow(cells, map[int]func(string) string{4: colour}))
		return
	}
	if p.tw == nil {
		p.tw = newTable(p.a.stdout)
	}
	if !p.title {
		p.title = true
		row(p.tw, auditColumns...)
	}
	cells[4] = colour(cells[4]) // every outcome coloured: the codes keep the column aligned
	row(p.tw, cells...)
}

// fixedRow lays cells out in the columns of followWidths: each is cut to
// its width and padded, then coloured by paint when it has a function.
func fixedRow(cells []string, paint map[int]func(string) string) string {
	var b strings.Builder
	for i, c := range cells {
		w := followWidths[i]
		c = cutRunes(oneLine(c), w) // as row does: a tab or newline from a pipe's raw text cannot break the row
		pad := ""
		if i < len(cells)-1 {
			pad = strings.Repeat(" ", w-utf8.RuneCountInString(c)+2)
		}
		if f := paint[i]; f != nil {
			c = f(c)
		}
		b.WriteString(c + pad)
	}
	return strings.TrimRight(b.String(), " ")
}

// cell is one cell of text from the log: on a terminal, its controls
// escaped as tool text is (escape.go), and its newlines and tabs too, so
// that a value cannot break the row or forge a column.
func (p *auditPrinter) cell(s string) string {
	if !p.a.termOut || p.a.raw {
		return s
	}
	return strings.NewReplacer("\n", `\n`, "\t", `\t`, "\r", `\r`).Replace(escapeControls(s))
}

// workspaceText shows a workspace root in a cell: "." for the current
// directory, relative below it, ~/… below the home directory.
func workspaceText(root string) string {
	if root == "" {
		return ""
	}
	if wd, err := os.Getwd(); err == nil && wd == root {
		return "."
	}
	if rel := relPath(root); rel != root {
		return rel
	}
	if home, err := os.UserHomeDir(); err == nil && home != "" && home != "/" {
		if rest, ok := strings.CutPrefix(root, home+string(filepath.Separator)); ok {
			return "~" + string(filepath.Separator) + rest
		}
	}
	return root
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
	if f.Workspace != "" {
		parts = append(parts, "in "+f.Workspace)
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
