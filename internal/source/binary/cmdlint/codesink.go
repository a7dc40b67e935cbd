package cmdlint

import (
	"fmt"
	"path"
	"slices"
	"strings"
)

// Templates that become code.
//
// shell = false keeps a value out of toolhost's own parsing. shell = true
// passes it as a positional parameter. Neither helps when the command
// hands the value to another interpreter as code. That is the script of
// sh -c, the arguments of eval, the remote command of ssh, the code of
// python3 -c. Take command = "sh -c 'echo {{tool.arguments.x}}'". The
// value "; touch X" runs touch. [CodeSink] finds such places so that
// `check` warns with the safe form. It is always the same. The code stays
// fixed and the value comes after it as an argument the code reads.

// Sink is a place where an argument is run as code.
type Sink struct {
	Prog string // the interpreter as written: "sh", "eval", "ssh", "python3"
	Kind SinkKind
	Flag string // SinkCode: the option the code follows, "-c"
}

// SinkKind says how a Sink runs its argument as code.
type SinkKind int

// The kinds of Sink. SinkNone: the argument is not run as code.
const (
	SinkNone   SinkKind = iota
	SinkScript          // the script of a shell's -c
	SinkEval            // an argument of eval
	SinkSSH             // the remote command of ssh
	SinkCode            // the code of an interpreter's -c/-e
	SinkAwk             // the program of awk
	SinkWatch           // the command of watch, which it runs with sh -c
)

// Warning is a warning about how a command takes its arguments, and its
// fix.
type Warning struct {
	Text, Fix string
}

// shells take -c SCRIPT. Busybox and su are handled on their own.
var shells = []string{"sh", "bash", "dash", "zsh", "ksh", "mksh", "ksh93", "pdksh", "ash", "yash", "posh", "fish", "csh", "tcsh"}

// codeFlags are the options after which an interpreter reads code. Each
// says how the code reads its first argument.
var codeFlags = map[string]struct {
	flags []string
	arg   string
}{
	"python":  {[]string{"-c"}, "sys.argv[1]"},
	"python2": {[]string{"-c"}, "sys.argv[1]"},
	"python3": {[]string{"-c"}, "sys.argv[1]"},
	"perl":    {[]string{"-e", "-E"}, "$ARGV[0]"},
	"ruby":    {[]string{"-e"}, "ARGV[0]"},
	"node":    {[]string{"-e", "--eval", "-p", "--print"}, "process.argv[1]"},
	"nodejs":  {[]string{"-e", "--eval", "-p", "--print"}, "process.argv[1]"},
	"php":     {[]string{"-r"}, "$argv[1]"},
}

// loopShift is how the code of perl -n/-p (ruby -n/-p) takes its first
// argument off the input files it loops over.
var loopShift = map[string]string{"perl": "BEGIN{$v=shift}", "ruby": "BEGIN{$v=ARGV.shift}"}

// wrappers run the command that follows their options. Some also skip a
// fixed number of operands. valueOpts are their options that take the
// next word as a value.
var wrappers = map[string]struct {
	valueOpts []string
	operands  int
}{
	"env":     {[]string{"-u", "--unset", "-C", "--chdir"}, 0},
	"nice":    {[]string{"-n", "--adjustment"}, 0},
	"nohup":   {nil, 0},
	"setsid":  {nil, 0},
	"command": {nil, 0},
	"builtin": {nil, 0},
	"exec":    {[]string{"-a"}, 0},
	"time":    {[]string{"-f", "--format", "-o", "--output"}, 0},
	"timeout": {[]string{"-s", "--signal", "-k", "--kill-after"}, 1},
	"stdbuf":  {[]string{"-i", "-o", "-e"}, 0},
	"sudo":    {[]string{"-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "-R", "-T"}, 0},
	"doas":    {[]string{"-u", "-C"}, 0},
	"chroot":  {[]string{"--userspec", "--groups"}, 1},
	"flock":   {[]string{"-w", "--timeout", "-E", "--conflict-exit-code"}, 1},
	"ionice":  {[]string{"-c", "--class", "-n", "--classdata"}, 0},
	"taskset": {nil, 1},
	"busybox": {nil, 0},
	"xargs": {[]string{"-a", "--arg-file", "-d", "--delimiter", "-E", "-I", "-L", "--max-lines", "-n", "--max-args",
		"-P", "--max-procs", "-s", "--max-chars", "--process-slot-var"}, 0},
}

// awks read their program from their first operand, unless -f names a
// program file. awkValueOpts are their options that take the next word.
var (
	awks         = []string{"awk", "gawk", "mawk", "nawk", "busybox-awk"}
	awkValueOpts = []string{"-F", "-v", "-f", "--field-separator", "--assign", "--file"}
)

// findExec are find's actions that run a command, ended by ";" or "+".
var findExec = []string{"-exec", "-execdir", "-ok", "-okdir"}

// shellKeywords may start a simple command before its command name.
var shellKeywords = []string{"!", "{", "if", "then", "elif", "else", "while", "until", "do", "time"}

// CodeSink reports whether the word that follows words is run as code.
// words are the earlier words of its simple command, as
// [invoke.Template.Before] has them. Code is the script of sh -c, also
// behind env, xargs, find -exec and the like. It is also an argument of
// eval, ssh's remote command, or an interpreter's -c/-e code.
func CodeSink(words []string) Sink {
	k := len(words) // the word holding the template
	i := 0
	for {
		for i < k && (isAssignment(words[i]) || slices.Contains(shellKeywords, words[i])) {
			i++
		}
		if i >= k {
			return Sink{} // the template is the command, or an assignment
		}
		name := path.Base(words[i])
		if w, ok := wrappers[name]; ok {
			j := skipOptions(words, i+1, k, w.valueOpts, name == "env") + w.operands
			if j >= k {
				return Sink{} // among the wrapper's own options: an option check, not this one
			}
			i = j
			continue
		}
		switch {
		case name == "find":
			start, ok := findExecStart(words, i+1, k)
			if !ok {
				return Sink{}
			}
			i = start
			continue
		case slices.Contains(shells, name):
			if script, ok := shellScript(words, i+1); ok && script == k {
				return Sink{Prog: words[i], Kind: SinkScript}
			}
		case name == "su":
			if k-1 > i && (words[k-1] == "-c" || words[k-1] == "--command") {
				return Sink{Prog: "su", Kind: SinkScript}
			}
		case name == "eval":
			return Sink{Prog: "eval", Kind: SinkEval}
		case slices.Contains(awks, name):
			if awkProgram(words, i+1, k) {
				return Sink{Prog: words[i], Kind: SinkAwk}
			}
		case name == "watch":
			if watchShell(words, i+1, k) {
				return Sink{Prog: words[i], Kind: SinkWatch}
			}
		case name == "ssh":
			if sshDestination(words, i+1) < k {
				return Sink{Prog: words[i], Kind: SinkSSH}
			}
		default:
			if c, ok := codeFlags[name]; ok && k-1 > i && codeFlag(c.flags, words[k-1]) {
				return Sink{Prog: words[i], Kind: SinkCode, Flag: words[k-1]}
			}
		}
		return Sink{}
	}
}

// codeFlag reports whether w is one of flags. It may stand alone, or be
// the last of several one-letter options written together (perl -ne,
// python3 -Bc).
func codeFlag(flags []string, w string) bool {
	if slices.Contains(flags, w) {
		return true
	}
	if len(w) < 3 || w[0] != '-' || w[1] == '-' {
		return false
	}
	for _, c := range w[1:] {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return false
		}
	}
	return slices.Contains(flags, "-"+w[len(w)-1:])
}

// awkProgram reports whether word k is awk's program. That is its first
// operand from j on, when no -f names a program file.
func awkProgram(words []string, j, k int) bool {
	for ; j < k; j++ {
		w := words[j]
		switch {
		case w == "--":
			return j+1 == k
		case w == "-f" || w == "--file" || strings.HasPrefix(w, "-f") || strings.HasPrefix(w, "--file="):
			return false // the program is in a file; the operands are input files
		case slices.Contains(awkValueOpts, w):
			j++
		case len(w) > 1 && w[0] == '-':
		default:
			return false // the program is an earlier word
		}
	}
	return j == k
}

// watchShell reports whether word k is in the command of watch. watch
// joins that command into one line for sh -c unless -x (--exec) is given.
func watchShell(words []string, j, k int) bool {
	for ; j < k; j++ {
		w := words[j]
		switch {
		case w == "--":
			return true
		case w == "-x" || w == "--exec" || (len(w) > 2 && w[0] == '-' && w[1] != '-' && strings.ContainsRune(w, 'x')):
			return false
		case w == "-n" || w == "--interval" || w == "-q" || w == "--equexit":
			j++
		case len(w) > 1 && w[0] == '-':
		default:
			return true // the command started before the template
		}
	}
	return true
}

// isAssignment reports whether w is NAME=value.
func isAssignment(w string) bool {
	name, _, ok := strings.Cut(w, "=")
	if !ok || name == "" || strings.HasPrefix(name, "-") {
		return false
	}
	for i, c := range name {
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// skipOptions returns the index of the first operand at or after j, before
// k. Words starting with "-" are options. Those in valueOpts take the next
// word too. "--" ends them. With assignments, NAME=value words are skipped
// as well (env).
func skipOptions(words []string, j, k int, valueOpts []string, assignments bool) int {
	for j < k {
		w := words[j]
		switch {
		case w == "--":
			return j + 1
		case len(w) > 1 && w[0] == '-':
			if slices.Contains(valueOpts, w) {
				j++
			}
		case assignments && isAssignment(w):
		default:
			return j
		}
		j++
	}
	return j
}

// findExecStart returns where the command of the find action holding word
// k starts. That is after the last -exec before k that no ";" or "+"
// ended. -execdir, -ok and -okdir count as -exec.
func findExecStart(words []string, j, k int) (int, bool) {
	start, open := 0, false
	for ; j < k; j++ {
		switch {
		case !open && slices.Contains(findExec, words[j]):
			start, open = j+1, true
		case open && j > start && (words[j] == ";" || words[j] == "+"):
			open = false
		}
	}
	return start, open && start < k
}

// shellScript returns the index of a shell's script operand when its
// options, from j on, include -c: sh -c [-e…] [-o opt…] SCRIPT [NAME ARG…].
func shellScript(words []string, j int) (int, bool) {
	hasC := false
	for ; j < len(words); j++ {
		w := words[j]
		if w == "--" || w == "-" {
			j++
			break
		}
		if len(w) < 2 || (w[0] != '-' && w[0] != '+') {
			break
		}
		if strings.HasPrefix(w, "--") { // bash's long options
			if w == "--rcfile" || w == "--init-file" {
				j++
			}
			continue
		}
		letters := w[1:]
		if w[0] == '-' && strings.ContainsRune(letters, 'c') {
			hasC = true
		}
		if strings.ContainsAny(letters, "oO") { // -o pipefail, -O extglob
			j++
		}
	}
	return j, hasC
}

// sshDestination returns the index of ssh's destination. That is its first
// operand from j on. The options that take a value skip it.
func sshDestination(words []string, j int) int {
	for ; j < len(words); j++ {
		w := words[j]
		if w == "--" {
			return j + 1
		}
		if len(w) < 2 || w[0] != '-' {
			return j
		}
		for n, c := range w[1:] {
			if strings.ContainsRune("BbcDEeFIiJLlmOoPpQRSWw", c) {
				if n == len(w)-2 { // the value is the next word
					j++
				}
				break
			}
		}
	}
	return j
}

// Warning says why the template t is run as code, and the safe form.
func (s Sink) Warning(t string) Warning {
	switch s.Kind {
	case SinkScript:
		return Warning{
			fmt.Sprintf("%s is inside the script of %s -c, so its value is run as shell code (a value such as \"; touch X\" runs touch), whether or not the entry sets shell = true", t, s.Prog),
			fmt.Sprintf("keep the script fixed and pass the value after it as a positional parameter, quoted in the script: %s -c '… \"$1\" …' %s %s; or drop %s -c and set shell = true, which passes every value as a positional parameter", s.Prog, s.Prog, t, s.Prog),
		}
	case SinkEval:
		return Warning{
			fmt.Sprintf("%s is an argument of eval, so its value is run as shell code", t),
			"do not eval it: with shell = true, use the template as a word of its own (toolhost passes it as a positional parameter, quoted)",
		}
	case SinkSSH:
		return Warning{
			fmt.Sprintf("%s is in the remote command of %s, which joins its arguments into one line for the remote shell, so its value is run as shell code on the remote host", t, s.Prog),
			"ssh has no way to pass a value apart from the command text: keep the remote command fixed, or constrain the parameter to an enum or to a pattern of characters no shell reads as code (pattern = \"^[A-Za-z0-9_./-]+$\")",
		}
	case SinkAwk:
		return Warning{
			fmt.Sprintf("%s is inside the program %s runs, so its value is run as awk code (a value such as system(\"touch X\") runs touch)", t, s.Prog),
			fmt.Sprintf("keep the program fixed and pass the value with -v, where it is a string (awk reads backslash escapes in it): %s -v v=%s '…v…'", s.Prog, t),
		}
	case SinkWatch:
		return Warning{
			fmt.Sprintf("%s is in the command of %s, which joins its arguments into one line for sh -c, so its value is run as shell code", t, s.Prog),
			fmt.Sprintf("add -x (--exec) so that %s runs the command without a shell: %s -x …", s.Prog, s.Prog),
		}
	case SinkCode:
		arg := codeFlags[path.Base(s.Prog)].arg
		if shift, ok := loopShift[path.Base(s.Prog)]; ok && strings.ContainsAny(s.Flag[1:len(s.Flag)-1], "np") {
			// -n/-p read the operands as input files: the value is taken off them first
			return Warning{
				fmt.Sprintf("%s is inside the code %s runs, so its value is run as code", t, s.Prog),
				fmt.Sprintf("keep the code fixed and pass the value after it, taken off the input files before they are read (%s): %s %s '%s …$v…' %s", shift, s.Prog, s.Flag, shift, t),
			}
		}
		return Warning{
			fmt.Sprintf("%s is inside the code %s runs, so its value is run as code", t, s.Prog),
			fmt.Sprintf("keep the code fixed and pass the value after it as an argument the code reads (%s): %s %s '…%s…' %s", arg, s.Prog, s.Flag, arg, t),
		}
	}
	return Warning{}
}

// TOMLQuote writes s as a TOML basic string.
func TOMLQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
