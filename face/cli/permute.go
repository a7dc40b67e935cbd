package cli

import (
	"strings"

	"github.com/urfave/cli/v2"
)

// permute lets flags follow positional arguments, as in
// `toolhost call NAME --json path=a.txt`: urfave/cli v2 (like the flag
// package) stops parsing flags at the first positional argument, so permute
// moves every flag of the selected command in front of its positionals. It
// walks args (without the program name): global flags, then the command
// and subcommand names, then the command's own tokens. Everything after a
// "--" stays in place. Global flags given after the command move in front
// of it. It also turns `call NAME --help` into
// `call --tool-help NAME`.
func permute(app *cli.App, args []string) []string {
	out := make([]string, 0, len(args))
	i := 0
	// Global flags before the command name.
	for i < len(args) && isFlagToken(args[i]) {
		n := flagWidth(app.Flags, args, i)
		out = append(out, args[i:i+n]...)
		i += n
	}
	if i >= len(args) {
		return out
	}
	cmdAt := len(out) // global flags found later move here
	cmds := app.Commands
	var cmd *cli.Command
	for i < len(args) {
		c := findCommand(cmds, args[i])
		if c == nil {
			break
		}
		cmd = c
		out = append(out, args[i])
		i++
		cmds = c.Subcommands
	}
	if cmd == nil || cmd.SkipFlagParsing {
		return append(out, args[i:]...)
	}
	var globals, flags, pos, rest []string
	help := -1 // index in flags of --help/-h, for `call NAME --help`
	for i < len(args) {
		a := args[i]
		if a == "--" {
			rest = args[i:]
			break
		}
		if isFlagToken(a) {
			if a == "--help" || a == "-h" || a == "-help" {
				help = len(flags)
			}
			if f := lookupFlag(cmd.Flags, a); f == nil && lookupFlag(app.Flags, a) != nil {
				n := flagWidth(app.Flags, args, i)
				globals = append(globals, args[i:i+n]...)
				i += n
				continue
			}
			n := flagWidth(cmd.Flags, args, i)
			flags = append(flags, args[i:i+n]...)
			i += n
			continue
		}
		pos = append(pos, a)
		i++
	}
	// `call NAME --help` lists the tool's parameters: the call command
	// reads it as --tool-help. `call --help` alone stays the command's help.
	if cmd.Name == "call" && help >= 0 && len(pos) > 0 {
		flags[help] = "--tool-help"
	}
	out = append(out[:cmdAt], append(globals, out[cmdAt:]...)...)
	out = append(out, flags...)
	if rest != nil {
		// "--" goes right after the flags, so that the flag parser drops
		// it whatever positionals came before it: `add NAME -- CMD --x`
		// becomes `add -- NAME CMD --x`.
		out = append(out, "--")
		out = append(out, pos...)
		return append(out, rest[1:]...)
	}
	return append(out, pos...)
}

func isFlagToken(a string) bool { return len(a) > 1 && a[0] == '-' && a != "--" }

// flagWidth is how many tokens the flag at args[i] takes: 2 when it names
// a flag that wants a value and the value is not attached with "=", else 1.
func flagWidth(flags []cli.Flag, args []string, i int) int {
	if strings.Contains(args[i], "=") {
		return 1
	}
	f := lookupFlag(flags, args[i])
	if f == nil {
		return 1
	}
	if dg, ok := f.(cli.DocGenerationFlag); ok && !dg.TakesValue() {
		return 1
	}
	if i+1 < len(args) {
		return 2
	}
	return 1
}

// lookupFlag returns the flag among flags that the token a names.
func lookupFlag(flags []cli.Flag, a string) cli.Flag {
	name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
	for _, f := range flags {
		for _, n := range f.Names() {
			if n == name {
				return f
			}
		}
	}
	return nil
}

func findCommand(cmds []*cli.Command, name string) *cli.Command {
	for _, c := range cmds {
		if c.HasName(name) {
			return c
		}
	}
	return nil
}
