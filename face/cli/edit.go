package cli

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/config/trust"
)

// newEditCommand is `toolhost edit`.
func newEditCommand(a *app) *cli.Command {
	return &cli.Command{
		Name:      "edit",
		Usage:     "edit a configuration file, then check it and keep trust",
		ArgsUsage: "[--user] [FILE]",
		Description: "Opens FILE (default: the workspace's .config/toolhost/tools.toml, or the\n" +
			"user file with --user) in $VISUAL, else $EDITOR, else vi. Once the editor\n" +
			"exits, the file is checked. When it has errors, each is shown as\n" +
			"file:line; on a terminal you may edit it again, else edit exits 1 and the\n" +
			"file stays as saved. When it has none and the workspace was trusted before,\n" +
			"what you saved is trusted, as crontab -e and kubectl edit take what you\n" +
			"save: a hand edit does not untrust your own workspace.\n\n" +
			"Examples:\n   toolhost edit\n   toolhost edit --user\n   EDITOR=nano toolhost edit .config/toolhost/servers.toml",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "user", Usage: "edit the user file (config.toml), not the workspace's"},
		},
		Action: func(c *cli.Context) error {
			if err := checkArgs(c, 0, 1, "[--user] [FILE]"); err != nil {
				return err
			}
			opts := &editOptions{User: c.Bool("user"), HasFile: c.Args().Present(), File: c.Args().First()}
			return editRun(c, a, opts)
		},
	}
}

// editOptions are what `toolhost edit` was given.
type editOptions struct {
	User    bool   // --user
	HasFile bool   // FILE was given
	File    string // FILE
}

// editRun opens a configuration file in the editor and checks it once
// saved. A trusted workspace stays trusted.
func editRun(c *cli.Context, a *app, opts *editOptions) error {
	root, err := findRoot(c)
	if err != nil {
		return &exitError{code: ExitFailure, err: err}
	}
	file := filepath.Join(root, ".config", "toolhost", "tools.toml")
	if dir, ok := config.WorkspaceDir(root); ok {
		file = filepath.Join(dir, "tools.toml")
	}
	switch {
	case opts.User && opts.HasFile:
		return commandUsageErrorf(c.Command.HelpName, "--user edits the user file: give it or FILE, not both")
	case opts.User:
		if file = config.UserFile(); file == "" {
			return &exitError{code: ExitFailure, err: errors.New("edit --user: no user configuration directory: set XDG_CONFIG_HOME or HOME")}
		}
	case opts.HasFile:
		if file, err = filepath.Abs(opts.File); err != nil {
			return &exitError{code: ExitFailure, err: err}
		}
	}
	var made []string // the directories made for the file, deepest first
	for d := filepath.Dir(file); ; d = filepath.Dir(d) {
		if _, err := os.Stat(d); err == nil || d == filepath.Dir(d) {
			break
		}
		made = append(made, d)
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return &exitError{code: ExitFailure, err: fmt.Errorf("edit: %w", err)}
	}
	ws, _ := config.FindWorkspace(root)
	inWorkspace := ws != nil && ws.Dir == filepath.Dir(file) && strings.HasSuffix(file, ".toml")
	if !inWorkspace && ws == nil && filepath.Dir(file) == filepath.Join(root, ".config", "toolhost") {
		inWorkspace = strings.HasSuffix(file, ".toml") // the workspace this edit creates
	}
	var before map[string]string
	var trusted bool
	if inWorkspace {
		before, trusted = trustedBeforeEdit(root, file)
	}
	old, err := os.ReadFile(file)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return &exitError{code: ExitFailure, err: fmt.Errorf("edit: %w", err)}
	}
	var in *bufio.Reader
	for {
		if err := a.runEditor(file); err != nil {
			return &exitError{code: ExitFailure, err: err}
		}
		saved, err := os.ReadFile(file)
		switch {
		case errors.Is(err, fs.ErrNotExist) && old == nil:
			for _, d := range made {
				_ = os.Remove(d) // only while empty: nothing was saved in it
			}
			fmt.Fprintf(a.stdout, "%s: not created, nothing to check\n", relPath(file))
			return nil
		case err != nil:
			return &exitError{code: ExitFailure, err: fmt.Errorf("edit: %w", err)}
		case old != nil && bytes.Equal(saved, old):
			fmt.Fprintf(a.stdout, "%s: no changes\n", relPath(file))
			return nil
		}
		problems := a.fileProblems(c, root, file)
		if len(problems) == 0 {
			note := ""
			if inWorkspace {
				note = keepTrusted(before, trusted, file, saved)
			}
			fmt.Fprintf(a.stdout, "%s: saved, no errors\n", relPath(file))
			if note != "" {
				fmt.Fprintf(a.stderr, "toolhost: %s\n", note)
			}
			return nil
		}
		for _, p := range problems {
			fmt.Fprintf(a.stderr, "toolhost: %s\n", a.errText(problemLine(p)))
		}
		if !a.interactive() {
			break
		}
		if in == nil {
			in = bufio.NewReader(a.stdin)
		}
		fmt.Fprintf(a.stderr, "edit %s again? [Y/n] ", relPath(file))
		line, err := in.ReadString('\n')
		if answer := strings.ToLower(strings.TrimSpace(line)); (err != nil && line == "") || answer == "n" || answer == "no" {
			break
		}
	}
	// A workspace file saved with errors is not trusted. So none of the
	// workspace's files is served. Another file is skipped alone.
	what := "it is left out"
	if inWorkspace {
		what = "the workspace's tools are not served"
	}
	return &exitError{code: ExitToolError, err: fmt.Errorf("%s keeps your changes, with errors: %s until they are fixed (toolhost edit%s)",
		relPath(file), what, editArg(opts))}
}

// trustedBeforeEdit is [trustedBefore] for an edit of file: a workspace
// whose files are the trusted ones but for file counts as trusted, with
// the record's files as they were. The person sees all of file in the
// editor. So a change to it since (an earlier edit that saved errors) is
// theirs to keep or undo. A change to any other file still untrusts.
func trustedBeforeEdit(root, file string) (map[string]string, bool) {
	before, trusted := trustedBefore(root)
	ws, err := config.FindWorkspace(root)
	if trusted || err != nil || ws == nil {
		return before, trusted
	}
	rec, err := trust.Default().Get(ws.Root)
	if err != nil || rec == nil {
		return before, false
	}
	want, name := maps.Clone(before), filepath.Base(file)
	if want == nil {
		want = map[string]string{}
	}
	if sum, ok := rec.Files[name]; ok {
		want[name] = sum
	} else {
		delete(want, name)
	}
	if !maps.Equal(want, rec.Files) {
		return before, false
	}
	return rec.Files, true
}

// editArg is the argument of the edit command line to suggest again.
func editArg(opts *editOptions) string {
	switch {
	case opts.User:
		return " --user"
	case opts.HasFile:
		return " " + config.QuoteWord(opts.File)
	}
	return ""
}

// problemLine is one problem of a file as edit shows it: file:line
// relative to the working directory, then the message.
func problemLine(p *config.Error) string {
	pos := p.Pos
	pos.File = relPath(pos.File)
	return pos.String() + ": " + p.Msg
}

// runEditor opens file in $VISUAL, else $EDITOR, else vi, on the
// command's own streams, and waits for it. The variable may hold
// arguments ("code --wait").
func (a *app) runEditor(file string) error {
	editor := a.opts.Getenv("VISUAL")
	if editor == "" {
		editor = a.opts.Getenv("EDITOR")
	}
	if editor == "" {
		editor = "vi"
	}
	argv, err := config.SplitWords(editor)
	if err != nil || len(argv) == 0 {
		return fmt.Errorf("edit: the editor %q is not a command line: %v; set VISUAL or EDITOR to one", editor, err)
	}
	cmd := exec.Command(argv[0], append(argv[1:], file)...)
	cmd.Stdout, cmd.Stderr = a.stdout, a.stderr
	if f, ok := a.stdin.(*os.File); ok { // the terminal; never answers meant for edit itself
		cmd.Stdin = f
	}
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return fmt.Errorf("edit: the editor %s exited with %v; the file is as it left it, unchecked", argv[0], ee.ProcessState)
		}
		return fmt.Errorf("edit: cannot start the editor: %w; set VISUAL or EDITOR", err)
	}
	return nil
}

// fileProblems loads the configuration as the commands do, but with the
// workspace trusted and file read even when it is not one of the layers
// (a --config file, another file), and returns the problems found in
// file.
func (a *app) fileProblems(c *cli.Context, root, file string) config.Problems {
	opts := a.loadOptions(c, root)
	opts.Trust = config.TrustAll
	ws, _ := config.FindWorkspace(root)
	layer := file == config.UserFile() || (ws != nil && ws.Dir == filepath.Dir(file) && strings.HasSuffix(file, ".toml"))
	for _, f := range opts.Files {
		if abs, _ := filepath.Abs(f); abs == file {
			layer = true
		}
	}
	if !layer {
		opts.Files = append(opts.Files, file)
	}
	_, err := config.Load(opts)
	var all config.Problems
	if !errors.As(err, &all) {
		if err != nil {
			return config.Problems{{Pos: config.Position{File: file}, Msg: err.Error()}}
		}
		return nil
	}
	var mine config.Problems
	for _, p := range all {
		if p.Pos.File == file {
			mine = append(mine, p)
		}
	}
	return mine
}
