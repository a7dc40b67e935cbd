package invoke

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Quoting says where a template sits in a shell command's script.
type Quoting int

// The quoting contexts a template may sit in. Commands without a shell
// have only Unquoted templates.
const (
	Unquoted     Quoting = iota // bare: a "${N}" reference takes its place
	DoubleQuoted                // inside "…": ${N}
	SingleQuoted                // inside '…': '"${N}"' (closes and reopens the quotes)
)

// String returns "unquoted", "double-quoted" or "single-quoted".
func (q Quoting) String() string {
	switch q {
	case DoubleQuoted:
		return "double-quoted"
	case SingleQuoted:
		return "single-quoted"
	}
	return "unquoted"
}

// Template is one {{…}} template of a command, as [Templates] finds it.
type Template struct {
	Text    string   // as written, with the braces: "{{ tool.arguments.x }}"
	Path    []string // the path inside the braces: ["tool", "arguments", "x"]
	Token   int      // the index of the command token holding it (0 for a shell script)
	Offset  int      // its byte offset in that token (in the script for a shell command)
	Quoting Quoting  // shell commands only: the quotes around it

	// Word numbers the argv element (shell: the word) that holds the
	// template. Templates with the same Word end up in the same element.
	Word int
	// StartsWord reports that nothing literal precedes the template in its
	// element. So its value starts the element, or a later one's when it is
	// empty. A leading "-" would make an option of it.
	StartsWord bool
	// AfterDashDash reports that a literal "--" element precedes it in the
	// same command. Programs read no options after it.
	AfterDashDash bool
	// Before lists the words of the same simple command before the one
	// holding the template. For sh -c '… {{x}} …' they are "sh", "-c".
	// Without a shell they are the command's earlier tokens as written. In a
	// shell script they are the words since the last operator or newline. Each
	// is its literal text, or "$" for a word that expands something.
	Before []string
}

// Argument returns the argument a {{tool.arguments.NAME…}} template
// reads, "" for other templates.
func (t Template) Argument() string {
	if len(t.Path) >= 3 && t.Path[0] == "tool" && t.Path[1] == "arguments" {
		return t.Path[2]
	}
	return ""
}

// ErrShellTemplate: a template of a shell command sits where its value
// cannot be passed safely. That is inside `…`, ${…}, $((…)) or a
// here-document. The fix: assign it to a variable first, as its own word
// (x={{tool.arguments.x}}; … "$x"). Or use $(…) rather than `…`.
var ErrShellTemplate = errors.New("template in a shell construct that cannot take a value safely")

// Templates lists the templates of a command in order. Tokens are argv
// tokens as [Spec.Command] holds them. With shell the tokens joined by
// spaces are one /bin/sh script. It is scanned for the quotes around each
// template.
//
// It returns an error for a malformed template. That is an unclosed "{{",
// an empty one, an empty path segment, or a root other than context and
// tool. In a shell script it returns an error for a template that [Run]
// cannot pass as a positional parameter (ErrShellTemplate).
func Templates(tokens []string, shell bool) ([]Template, error) {
	if shell {
		return scanShell(strings.Join(tokens, " "))
	}
	var out []Template
	dashdash := false
	for i, tok := range tokens {
		literal := false // a literal byte precedes, in this token
		for off := 0; ; {
			open := strings.Index(tok[off:], "{{")
			if open < 0 {
				break
			}
			open += off
			literal = literal || open > off
			t, end, err := parseTemplate(tok, open)
			if err != nil {
				return nil, fmt.Errorf("command token %d %q: %w", i, tok, err)
			}
			t.Token, t.Word, t.StartsWord, t.AfterDashDash = i, i, !literal, dashdash
			t.Before = tokens[:i:i]
			out = append(out, t)
			off = end
		}
		if i > 0 && tok == "--" {
			dashdash = true
		}
	}
	return out, nil
}

// parseTemplate reads the template opening at s[open:]. It returns it and
// the offset after its closing braces.
func parseTemplate(s string, open int) (Template, int, error) {
	end := strings.Index(s[open+2:], "}}")
	if end < 0 {
		return Template{}, 0, fmt.Errorf("unclosed {{ at offset %d", open)
	}
	end += open + 2
	path, err := parsePath(strings.TrimSpace(s[open+2 : end]))
	if err != nil {
		return Template{}, 0, err
	}
	return Template{Text: s[open : end+2], Path: path, Offset: open}, end + 2, nil
}

// parsePath checks a template expression such as tool.arguments.x.
func parsePath(expr string) ([]string, error) {
	if expr == "" {
		return nil, fmt.Errorf("empty template {{}}: want {{context}}, {{tool}} or a path such as {{tool.arguments.x}}")
	}
	path := strings.Split(expr, ".")
	for _, seg := range path {
		if seg == "" {
			return nil, fmt.Errorf("template {{%s}} has an empty path segment", expr)
		}
	}
	if path[0] != "context" && path[0] != "tool" {
		return nil, fmt.Errorf("template {{%s}}: unknown root %q (want context or tool)", expr, path[0])
	}
	return path, nil
}

// The contexts of the shell scanner.
type frameKind int

const (
	command   frameKind = iota // words and operators: the script, or inside $(…)
	double                     // "…"
	single                     // '…'
	backquote                  // `…`
	param                      // ${…}
	arith                      // $((…))
)

// frame is one open context of the shell scanner.
type frame struct {
	kind   frameKind
	sub    bool // a command frame opened by $(: its ")" at depth 0 closes it
	parens int  // command and arith frames: open "(" inside

	// The word being read, in command frames.
	inWord   bool
	literal  bool            // a literal byte of the word was read
	text     strings.Builder // its literal bytes, while it is plain
	plain    bool            // the word is only literal bytes so far
	word     int             // its number
	dashdash bool            // a "--" word was read in this simple command
	words    []string        // the words of this simple command so far ("$": one that expands)
}

// shellScanner finds the templates of a /bin/sh script and the quoting
// context of each. It understands what decides where a word starts and
// which quotes are open. That is blanks, operators, comments, '…', "…",
// backslashes, and $(…) recursively. It recognises the constructs in
// which a template is refused: `…`, ${…}, $((…)) and here-documents.
type shellScanner struct {
	s       string
	frames  []*frame
	words   int
	heredoc int // 1: a << was read; 2: a here-document body started
	out     []Template
}

func scanShell(s string) ([]Template, error) {
	sc := &shellScanner{s: s}
	sc.push(command, false)
	for i := 0; i < len(s); {
		if strings.HasPrefix(s[i:], "{{") {
			t, end, err := parseTemplate(s, i)
			if err != nil {
				return nil, fmt.Errorf("shell command: %w", err)
			}
			if err := sc.template(t); err != nil {
				return nil, err
			}
			i = end
			continue
		}
		i = sc.step(i)
	}
	return sc.out, nil
}

func (sc *shellScanner) push(kind frameKind, sub bool) {
	sc.frames = append(sc.frames, &frame{kind: kind, sub: sub})
}

func (sc *shellScanner) pop() {
	if len(sc.frames) > 1 {
		sc.frames = sc.frames[:len(sc.frames)-1]
	}
}

func (sc *shellScanner) top() *frame { return sc.frames[len(sc.frames)-1] }

// cmd returns the innermost command frame. A quoted part belongs to that
// frame's word.
func (sc *shellScanner) cmd() *frame {
	for i := len(sc.frames) - 1; i >= 0; i-- {
		if sc.frames[i].kind == command {
			return sc.frames[i]
		}
	}
	return sc.frames[0]
}

// startWord marks the innermost command frame as inside a word.
func (sc *shellScanner) startWord() *frame {
	f := sc.cmd()
	if !f.inWord {
		f.inWord, f.literal, f.plain = true, false, true
		f.text.Reset()
		f.word = sc.words
		sc.words++
	}
	return f
}

// literalByte records a literal byte of the current word.
func (sc *shellScanner) literalByte(c byte) {
	f := sc.startWord()
	f.literal = true
	if f.plain {
		f.text.WriteByte(c)
	}
}

// expansion records something that expands (a $ or a template) in the
// current word. The word is no longer a plain literal.
func (sc *shellScanner) expansion() {
	sc.startWord().plain = false
}

// endWord ends the current word of f. A plain "--" exempts the rest of the
// simple command.
func (f *frame) endWord() {
	if f.inWord && f.plain && f.text.String() == "--" {
		f.dashdash = true
	}
	if f.inWord {
		w := "$"
		if f.plain {
			w = f.text.String()
		}
		f.words = append(f.words, w)
	}
	f.inWord = false
}

// endCommand ends the current word of f and its simple command.
func (f *frame) endCommand() {
	f.endWord()
	f.dashdash = false
	f.words = nil
}

func (sc *shellScanner) template(t Template) error {
	where := ""
	switch {
	case sc.heredoc == 2:
		where = "in a here-document"
	default:
		switch sc.top().kind {
		case backquote:
			where = "inside `…`"
		case param:
			where = "inside ${…}"
		case arith:
			where = "inside $((…))"
		case double:
			t.Quoting = DoubleQuoted
		case single:
			t.Quoting = SingleQuoted
		}
	}
	if where != "" {
		return fmt.Errorf("%w: %s at offset %d is %s", ErrShellTemplate, t.Text, t.Offset, where)
	}
	f := sc.startWord()
	t.Word, t.StartsWord, t.AfterDashDash = f.word, !f.literal, f.dashdash
	t.Before = slices.Clip(f.words)
	sc.expansion()
	sc.out = append(sc.out, t)
	return nil
}

// step reads the byte at i in the current context and returns where to go on.
func (sc *shellScanner) step(i int) int {
	s, f := sc.s, sc.top()
	c := s[i]
	switch f.kind {
	case single:
		if c == '\'' {
			sc.pop()
		} else {
			sc.literalByte(c)
		}
		return i + 1
	case double:
		switch c {
		case '"':
			sc.pop()
		case '\\':
			if i+1 < len(s) {
				sc.literalByte(s[i+1])
				return i + 2
			}
		case '$':
			return sc.dollar(i)
		case '`':
			sc.expansion()
			sc.push(backquote, false)
		default:
			sc.literalByte(c)
		}
		return i + 1
	case backquote:
		switch c {
		case '\\':
			return i + 2
		case '`':
			sc.pop()
		}
		return i + 1
	case param:
		switch c {
		case '}':
			sc.pop()
		case '\\':
			return i + 2
		case '\'':
			sc.push(single, false)
		case '"':
			sc.push(double, false)
		case '$':
			return sc.dollar(i)
		case '`':
			sc.push(backquote, false)
		}
		return i + 1
	case arith:
		switch c {
		case '(':
			f.parens++
		case ')':
			if f.parens == 0 && strings.HasPrefix(s[i:], "))") {
				sc.pop()
				return i + 2
			}
			f.parens--
		case '$':
			return sc.dollar(i)
		case '`':
			sc.push(backquote, false)
		}
		return i + 1
	}
	// A command frame.
	switch c {
	case ' ', '\t':
		f.endWord()
	case '\n':
		f.endCommand()
		if sc.heredoc == 1 {
			sc.heredoc = 2
		}
	case ';', '&', '|':
		f.endCommand()
	case '(':
		f.endCommand()
		f.parens++
	case ')':
		f.endCommand()
		if f.parens == 0 && f.sub {
			sc.pop()
			return i + 1
		}
		f.parens--
	case '<', '>':
		f.endWord()
		if strings.HasPrefix(s[i:], "<<") {
			if sc.heredoc == 0 {
				sc.heredoc = 1
			}
			return i + 2
		}
	case '#':
		if !f.inWord {
			if j := strings.IndexByte(s[i:], '\n'); j >= 0 {
				return i + j
			}
			return len(s)
		}
		sc.literalByte(c)
	case '\\':
		if i+1 < len(s) {
			if s[i+1] != '\n' { // backslash-newline joins lines
				sc.literalByte(s[i+1])
			}
			return i + 2
		}
		sc.literalByte(c)
	case '\'':
		sc.startWord()
		sc.push(single, false)
	case '"':
		sc.startWord()
		sc.push(double, false)
	case '$':
		return sc.dollar(i)
	case '`':
		sc.expansion()
		sc.push(backquote, false)
	default:
		sc.literalByte(c)
	}
	return i + 1
}

// dollar reads an expansion starting with the $ at i.
func (sc *shellScanner) dollar(i int) int {
	s := sc.s
	switch {
	case strings.HasPrefix(s[i:], "$(("):
		sc.expansion()
		sc.push(arith, false)
		return i + 3
	case strings.HasPrefix(s[i:], "$("):
		sc.expansion()
		sc.push(command, true)
		return i + 2
	case strings.HasPrefix(s[i:], "${") && !strings.HasPrefix(s[i:], "${{"):
		sc.expansion()
		sc.push(param, false)
		return i + 2
	}
	j := i + 1
	if j < len(s) && strings.IndexByte("@*#?-$!0123456789", s[j]) >= 0 {
		sc.expansion()
		return j + 1
	}
	for j < len(s) && (s[j] == '_' || 'a' <= s[j] && s[j] <= 'z' || 'A' <= s[j] && s[j] <= 'Z' || j > i+1 && '0' <= s[j] && s[j] <= '9') {
		j++
	}
	if j > i+1 {
		sc.expansion()
		return j
	}
	sc.literalByte('$') // a lone $ is literal
	return i + 1
}
