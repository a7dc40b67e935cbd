package invoke

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/toolhost/toolhost/tool"
)

// Render renders the JP argv templates in tokens (design §3.2) for req and
// returns the new argv. Tokens without "{{" are passed unchanged; each
// other token is rendered on its own, so a template never splits or joins
// argv elements:
//
//   - {{context}} and {{tool}} become the compact JSON of the request's
//     context and tool objects, exactly as written on stdin ({{tool}} is
//     null for a schema request);
//   - {{context.root}}, {{tool.name}}, {{tool.arguments.x}},
//     {{tool.arguments.a.b}}, {{tool.arguments.list.0}} walk into them: a
//     string, number or boolean renders bare, an object or array as compact
//     JSON, and a missing value as null.
//
// Blanks inside the braces are allowed ({{ tool.arguments.x }}). An
// unclosed "{{", an empty template, an empty path segment or a root other
// than context and tool is an error naming the token.
func Render(tokens []string, req *tool.Request) ([]string, error) {
	return render(tokens, req, nil)
}

// render is Render with an optional quote function applied to every
// rendered value (shellQuote when the command runs through /bin/sh).
func render(tokens []string, req *tool.Request, quote func(string) string) ([]string, error) {
	out := make([]string, len(tokens))
	var roots *templateRoots
	for i, tok := range tokens {
		if !strings.Contains(tok, "{{") {
			out[i] = tok
			continue
		}
		if roots == nil {
			var err error
			if roots, err = newTemplateRoots(req); err != nil {
				return nil, err
			}
		}
		s, err := roots.renderToken(tok, quote)
		if err != nil {
			return nil, fmt.Errorf("command token %d %q: %w", i, tok, err)
		}
		out[i] = s
	}
	return out, nil
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

func (r *templateRoots) renderToken(tok string, quote func(string) string) (string, error) {
	var b strings.Builder
	for {
		open := strings.Index(tok, "{{")
		if open < 0 {
			b.WriteString(tok)
			return b.String(), nil
		}
		end := strings.Index(tok[open+2:], "}}")
		if end < 0 {
			return "", fmt.Errorf("unclosed {{ at offset %d", open)
		}
		b.WriteString(tok[:open])
		s, err := r.lookup(strings.TrimSpace(tok[open+2 : open+2+end]))
		if err != nil {
			return "", err
		}
		if quote != nil {
			s = quote(s)
		}
		b.WriteString(s)
		tok = tok[open+2+end+2:]
	}
}

// lookup renders one template expression such as tool.arguments.x.
func (r *templateRoots) lookup(expr string) (string, error) {
	if expr == "" {
		return "", fmt.Errorf("empty template {{}}: want {{context}}, {{tool}} or a path such as {{tool.arguments.x}}")
	}
	path := strings.Split(expr, ".")
	for _, seg := range path {
		if seg == "" {
			return "", fmt.Errorf("template {{%s}} has an empty path segment", expr)
		}
	}
	v, ok := r.value[path[0]]
	if !ok {
		return "", fmt.Errorf("template {{%s}}: unknown root %q (want context or tool)", expr, path[0])
	}
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

// scalarText renders a decoded JSON value: scalars bare, composites as
// compact JSON, nil as null.
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
