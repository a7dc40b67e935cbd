package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/toolhost/toolhost/internal/toolname"
)

const bashCompletion = `# bash completion for toolhost; load with: source <(toolhost completion bash)
_toolhost_complete() {
  local cur words req
  COMPREPLY=()
  cur="${COMP_WORDS[COMP_CWORD]}"
  words=("${COMP_WORDS[@]:0:$COMP_CWORD}")
  if [[ "$cur" == "-"* ]]; then
    req="${words[*]} ${cur} --generate-bash-completion"
  else
    req="${words[*]} --generate-bash-completion"
  fi
  local IFS=$'\n'
  COMPREPLY=($(compgen -W "$(eval "${req}" 2>/dev/null)" -- "${cur}"))
  if [[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == *= ]]; then
    compopt -o nospace 2>/dev/null
  fi
  return 0
}
complete -o bashdefault -o default -F _toolhost_complete toolhost
`

const zshCompletion = `#compdef toolhost
# zsh completion for toolhost; load with: source <(toolhost completion zsh)
_toolhost() {
  local -a opts
  local cur
  cur=${words[-1]}
  if [[ "$cur" == "-"* ]]; then
    opts=("${(@f)$(${words[@]:0:#words[@]-1} ${cur} --generate-bash-completion 2>/dev/null)}")
  else
    opts=("${(@f)$(${words[@]:0:#words[@]-1} --generate-bash-completion 2>/dev/null)}")
  fi
  if [[ "${opts[1]}" != "" ]]; then
    _describe 'values' opts
  else
    _files
  fi
}
compdef _toolhost toolhost
`

// newCompletionCommand is `toolhost completion`.
func newCompletionCommand(a *app) *cli.Command {
	return &cli.Command{
		Name:      "completion",
		Usage:     "print a shell completion script (bash or zsh)",
		ArgsUsage: "bash|zsh",
		Description: "Completes commands, flags and tool names.\n\n" +
			"Examples:\n   source <(toolhost completion bash)      # in ~/.bashrc\n" +
			"   source <(toolhost completion zsh)       # in ~/.zshrc, after compinit",
		Action: func(c *cli.Context) error {
			if err := checkArgs(c, 0, 1, "bash|zsh"); err != nil {
				return err
			}
			opts := &completionOptions{Shell: c.Args().First()}
			return completionRun(c, a, opts)
		},
		BashComplete: func(c *cli.Context) {
			fmt.Fprintln(a.stdout, "bash")
			fmt.Fprintln(a.stdout, "zsh")
		},
	}
}

// completionOptions are what `toolhost completion` was given.
type completionOptions struct {
	Shell string // bash, zsh or "" (bash)
}

// completionRun prints the completion script of a shell.
func completionRun(c *cli.Context, a *app, opts *completionOptions) error {
	switch sh := opts.Shell; sh {
	case "", "bash":
		_, err := io.WriteString(a.stdout, bashCompletion)
		return err
	case "zsh":
		_, err := io.WriteString(a.stdout, zshCompletion)
		return err
	default:
		return usageErrorf("completion: unknown shell %q (want bash or zsh)", sh)
	}
}

// completeToolNames is the BashComplete of commands whose first argument
// is a tool name: it prints the tool names, then, once a name is given,
// "param=" for each parameter of that tool not given yet (for call and
// format). Errors print nothing: completion must stay quiet. Only
// [completable] names are printed: the shell reads the candidates as
// code.
func (a *app) completeToolNames(c *cli.Context) {
	quietApp := *a
	quietApp.stderr = io.Discard
	cat, err := quietApp.catalog(c)
	if err != nil {
		return
	}
	if c.NArg() == 0 {
		for _, n := range cat.Names() {
			if completable(n) {
				fmt.Fprintln(a.stdout, n)
			}
		}
		return
	}
	t, ok := cat.Tool(c.Args().First())
	if !ok || c.Command.Name == "describe" {
		return
	}
	given := map[string]bool{}
	for _, kv := range c.Args().Tail() {
		k, _, _ := strings.Cut(kv, "=")
		given[k] = true
	}
	for _, r := range paramRows(t.InputSchema) {
		if !given[r.Name] && completable(r.Name) {
			fmt.Fprintln(a.stdout, r.Name+"=")
		}
	}
}

// completable reports whether name may be offered as a completion: 1 to
// 64 ASCII letters, digits, '_', '-' or '.'. Binaries' parameter names are
// held to that rule. A tool name is one already: the catalog checks it.
// An MCP server names its tools' parameters as it likes (docs/security.md).
// The candidates are one a line. bash's compgen -W expands them as shell
// words: $(…) runs, ${…} and ~ expand. zsh's _describe splits them at ':'.
// So a newline, a space, a shell metacharacter or an escape sequence in a
// name would add candidates, run code at Tab or reach the terminal. Such a
// parameter is left out, not escaped: `call NAME --help` shows it
// (escaped on a terminal), and --args gives it a value.
func completable(name string) bool {
	return toolname.Valid(strings.ReplaceAll(name, ".", "_"))
}
