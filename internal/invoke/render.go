package invoke

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/toolhost/toolhost/tool"
)

// Render renders the JP argv templates in tokens (docs/protocol.md) for req.
// It returns the new argv. Tokens without "{{" are passed unchanged. Each
// other token is rendered on its own. So a template never splits or joins
// argv elements:
//
//   - {{context}} and {{tool}} become the compact JSON of the request's
//     context and tool objects, exactly as written on stdin. {{tool}} is
//     null for a schema request.
//   - {{context.root}}, {{tool.name}}, {{tool.arguments.x}},
//     {{tool.arguments.a.b}}, {{tool.arguments.list.0}} walk into them. A
//     string, number or boolean renders bare. An object or array renders
//     as compact JSON, and a missing value as null.
//
// Blanks inside the braces are allowed ({{ tool.arguments.x }}). Some
// templates are an error naming the token. They are an unclosed "{{", an
// empty template, an empty path segment, or a root other than context and
// tool.
//
// Render applies no policy. [Run] also refuses values that would start an
// argv element with "-" ([ErrOptionValue]). It runs shell commands with
// the values as positional parameters.
func Render(tokens []string, req *tool.Request) ([]string, error) {
	ts, err := Templates(tokens, false)
	if err != nil {
		return nil, err
	}
	values, err := templateValues(ts, req)
	if err != nil {
		return nil, err
	}
	return substitute(tokens, ts, values), nil
}

// CheckArguments reports whether [Run] would refuse to start spec for req
// because of its templates. Run refuses a malformed template, and a shell
// template in a construct that cannot take a value ([ErrShellTemplate]).
// It refuses a value that would be read as an option (an [*OptionError],
// matching [ErrOptionValue]). It refuses a value holding a NUL byte (a
// [*NULError]). CheckArguments starts nothing. So a caller can refuse a
// call before running it.
func CheckArguments(spec *Spec, req *tool.Request) error {
	_, err := commandLine(spec, req)
	return err
}

// shellName is $0 of a shell command's script.
const shellName = "sh"

// commandLine renders spec's command for req into the argv Run starts.
// Without Shell each token is rendered on its own. With Shell the tokens
// joined by spaces are the script of /bin/sh -c. In it every template is
// replaced by a reference to a positional parameter. The values follow as
// the parameters: /bin/sh -c SCRIPT sh VALUE1 VALUE2 …. The script never
// holds a value. So no value is ever parsed as shell code.
func commandLine(spec *Spec, req *tool.Request) ([]string, error) {
	ts, err := Templates(spec.Command, spec.Shell)
	if err != nil {
		return nil, err
	}
	values, err := templateValues(ts, redacted(req, spec.SecretAnswers))
	if err != nil {
		return nil, err
	}
	if err := checkNUL(ts, values); err != nil {
		return nil, err
	}
	if err := checkOptions(spec, ts, values); err != nil {
		return nil, err
	}
	if !spec.Shell {
		return substitute(spec.Command, ts, values), nil
	}
	script := strings.Join(spec.Command, " ")
	var b strings.Builder
	last := 0
	for i, t := range ts {
		b.WriteString(script[last:t.Offset])
		b.WriteString(shellReference(i+1, t.Quoting))
		last = t.Offset + len(t.Text)
	}
	b.WriteString(script[last:])
	return append([]string{"/bin/sh", "-c", b.String(), shellName}, values...), nil
}

// shellReference is the text that replaces a template in a shell script.
// It is positional parameter n, expanded as exactly one word in the
// template's quoting context. Single quotes expand nothing. Inside them
// the quotes are closed around a double-quoted reference and reopened.
func shellReference(n int, q Quoting) string {
	ref := "${" + strconv.Itoa(n) + "}"
	switch q {
	case DoubleQuoted:
		return ref
	case SingleQuoted:
		return `'"` + ref + `"'`
	}
	return `"` + ref + `"`
}

// substitute replaces the templates ts of tokens by their values.
func substitute(tokens []string, ts []Template, values []string) []string {
	out := slices.Clone(tokens)
	for i := len(ts) - 1; i >= 0; i-- { // from the end, so offsets stay valid
		t := ts[i]
		tok := out[t.Token]
		out[t.Token] = tok[:t.Offset] + values[i] + tok[t.Offset+len(t.Text):]
	}
	return out
}

// templateValues renders the value of each template for req.
func templateValues(ts []Template, req *tool.Request) ([]string, error) {
	if len(ts) == 0 {
		return nil, nil
	}
	roots, err := newTemplateRoots(req)
	if err != nil {
		return nil, err
	}
	values := make([]string, len(ts))
	for i, t := range ts {
		if values[i], err = roots.lookup(t.Path); err != nil {
			return nil, err
		}
	}
	return values, nil
}

// templateRoots holds the two template roots, as JSON and decoded.
type templateRoots struct {
	raw   map[string][]byte
	value map[string]any
}

func newTemplateRoots(req *tool.Request) (*templateRoots, error) {
	if req == nil {
		req = &tool.Request{Protocol: tool.Version}
	}
	r := &templateRoots{raw: map[string][]byte{}, value: map[string]any{}}
	for name, v := range map[string]any{"context": req.Context, "tool": req.Tool} {
		data, err := tool.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("encoding the request's %s for templates: %w", name, err)
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		var val any
		if err := dec.Decode(&val); err != nil {
			return nil, fmt.Errorf("decoding the request's %s for templates: %w", name, err)
		}
		r.raw[name], r.value[name] = data, val
	}
	return r, nil
}

// lookup renders the value of a template path such as tool.arguments.x.
func (r *templateRoots) lookup(path []string) (string, error) {
	v := r.value[path[0]]
	if len(path) == 1 {
		return string(r.raw[path[0]]), nil
	}
	for _, seg := range path[1:] {
		switch x := v.(type) {
		case map[string]any:
			v = x[seg]
		case []any:
			n, err := strconv.Atoi(seg)
			if err != nil || n < 0 || n >= len(x) {
				v = nil
			} else {
				v = x[n]
			}
		default:
			v = nil
		}
		if v == nil {
			return "null", nil
		}
	}
	return scalarText(v)
}

// scalarText renders a decoded JSON value. Scalars are bare, composites
// compact JSON, nil null.
func scalarText(v any) (string, error) {
	switch x := v.(type) {
	case nil:
		return "null", nil
	case string:
		return x, nil
	case json.Number:
		return x.String(), nil
	case bool:
		return strconv.FormatBool(x), nil
	}
	data, err := tool.Marshal(v)
	if err != nil {
		return "", err
	}
	return string(data), nil
}

// RedactedAnswer is what argv holds in place of a secret answer
// ([Spec.SecretAnswers]).
const RedactedAnswer = "[redacted]"

// redacted returns req with every answer whose value is one of secrets
// replaced by [RedactedAnswer]. It is for rendering argv. It returns req
// itself when there is none. The request written on stdin keeps the
// answers.
func redacted(req *tool.Request, secrets []string) *tool.Request {
	if len(secrets) == 0 || req == nil || req.Tool == nil || len(req.Tool.Answers) == 0 {
		return req
	}
	var answers map[string]any
	for id, a := range req.Tool.Answers {
		if v, ok := a.(string); ok && slices.Contains(secrets, v) {
			if answers == nil {
				answers = maps.Clone(req.Tool.Answers)
			}
			answers[id] = RedactedAnswer
		}
	}
	if answers == nil {
		return req
	}
	r, t := *req, *req.Tool
	t.Answers = answers
	r.Tool = &t
	return &r
}
