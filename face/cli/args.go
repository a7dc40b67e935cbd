package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/internal/dupkey"
	"github.com/toolhost/toolhost/tool"
)

// parseArguments builds a call's arguments from the --args JSON object (may
// be empty) and key=value pairs, which win over --args. Each value is typed
// by the parameter's schema: see [typeValue].
func parseArguments(argsJSON string, pairs []string, params map[string]*tool.Parameter) (map[string]any, error) {
	args, err := catalog.DecodeArguments([]byte(argsJSON))
	if err != nil {
		if dup := (*dupkey.Error)(nil); errors.As(err, &dup) { // the catalog's "arguments: " would follow "--args: "
			return nil, usageFix(err, "--args: %v", dup)
		}
		return nil, usageFix(err, "--args: %v", err)
	}
	seen := map[string]bool{}
	for _, kv := range pairs {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, usageErrorf("argument %q: want key=value", kv)
		}
		if seen[k] {
			return nil, usageErrorf("argument %q given twice", k)
		}
		seen[k] = true
		val, err := typeValue(v, params[k])
		if err != nil {
			return nil, usageFix(err, "argument %q: %v", k, err)
		}
		args[k] = val
	}
	return normalize(args)
}

// typeValue converts the text s of a key=value argument to the type its
// parameter p declares: integer, number and boolean are parsed. Array and
// object take JSON (an array also takes comma-separated items, each typed
// by "items"), null takes "null"; string keeps s as it is. A parameter that
// is unknown or declares no type keeps the string. With several types, the
// first that parses wins, and string (when listed) is the fallback.
func typeValue(s string, p *tool.Parameter) (any, error) {
	if p == nil || len(p.Type) == 0 {
		return s, nil
	}
	var firstErr error
	for _, t := range p.Type {
		if t == "string" {
			continue
		}
		v, err := parseAs(s, t, p)
		if err == nil {
			return v, nil
		}
		if firstErr == nil {
			firstErr = err
		}
	}
	if slices.Contains(p.Type, "string") || firstErr == nil {
		return s, nil
	}
	return nil, firstErr
}

func parseAs(s, typ string, p *tool.Parameter) (any, error) {
	switch typ {
	case "integer": // every digit kept, as --args keeps them
		t := strings.TrimSpace(s)
		if n, ok := jsonNumber(t); !ok || strings.ContainsAny(t, ".eE") {
			return nil, fmt.Errorf("want an integer, got %q", s)
		} else {
			return n, nil
		}
	case "number":
		n, ok := jsonNumber(strings.TrimSpace(s))
		if !ok {
			return nil, fmt.Errorf("want a number, got %q", s)
		}
		return n, nil
	case "boolean":
		b, err := strconv.ParseBool(strings.TrimSpace(s))
		if err != nil {
			return nil, fmt.Errorf("want true or false, got %q", s)
		}
		return b, nil
	case "null":
		if strings.TrimSpace(s) != "null" {
			return nil, fmt.Errorf("want null, got %q", s)
		}
		return nil, nil
	case "object":
		var m map[string]any
		if err := decodeJSON(s, &m); err != nil || m == nil {
			if errors.As(err, new(*dupkey.Error)) {
				return nil, catalog.Problem{Err: fmt.Errorf("%v in %q", err, s), Fix: "give each key once"}
			}
			return nil, fmt.Errorf("want a JSON object, got %q", s)
		}
		return m, nil
	case "array":
		t := strings.TrimSpace(s)
		if strings.HasPrefix(t, "[") {
			var a []any
			if err := decodeJSON(t, &a); err != nil {
				if errors.As(err, new(*dupkey.Error)) {
					return nil, catalog.Problem{Err: fmt.Errorf("%v in %q", err, s), Fix: "give each key once"}
				}
				return nil, fmt.Errorf("want a JSON array or comma-separated items, got %q", s)
			}
			return a, nil
		}
		items := []any{}
		if t == "" {
			return items, nil
		}
		for _, part := range strings.Split(s, ",") {
			v, err := typeValue(part, p.Items)
			if err != nil {
				return nil, fmt.Errorf("item %q: %v", part, err)
			}
			items = append(items, v)
		}
		return items, nil
	}
	return nil, fmt.Errorf("unknown type %q", typ)
}

// parseAnswer converts the text of an --answer or of a reply typed on the
// terminal to what q expects. Boolean expects a bool: true/false, yes/no
// or y/n. Text expects the text. Select expects one of the options, by
// name or 1-based number.
func parseAnswer(s string, q tool.Question) (any, error) {
	switch q.AnswerType.Kind {
	case tool.AnswerBoolean:
		switch strings.ToLower(strings.TrimSpace(s)) {
		case "y", "yes", "true", "1":
			return true, nil
		case "n", "no", "false", "0":
			return false, nil
		}
		return nil, fmt.Errorf("question %q wants yes or no, got %q", q.ID, s)
	case tool.AnswerSelect:
		if q.AnswerType.Multiple { // comma-separated options (names or numbers); empty for none
			picked := []any{}
			for _, part := range strings.Split(s, ",") {
				if strings.TrimSpace(part) == "" {
					continue
				}
				o, err := option(part, q)
				if err != nil {
					return nil, err
				}
				picked = append(picked, o)
			}
			if err := q.Check(picked); err != nil {
				return nil, err
			}
			return picked, nil
		}
		return option(s, q)
	case tool.AnswerNumber:
		n, ok := jsonNumber(strings.TrimSpace(s))
		if !ok {
			return nil, fmt.Errorf("question %q wants a number, got %q", q.ID, s)
		}
		if err := q.Check(n); err != nil {
			return nil, err
		}
		return n, nil
	}
	return s, nil // Text, Secret
}

// option reads one option of a Select question: its name, or its 1-based
// number.
func option(s string, q tool.Question) (string, error) {
	t := strings.TrimSpace(s)
	if slices.Contains(q.AnswerType.Options, t) {
		return t, nil
	}
	if n, err := strconv.Atoi(t); err == nil && n >= 1 && n <= len(q.AnswerType.Options) {
		return q.AnswerType.Options[n-1], nil
	}
	return "", fmt.Errorf("question %q wants one of %q, got %q", q.ID, q.AnswerType.Options, s)
}

// parseAnswerFlags splits --answer id=value flags into raw values by id.
func parseAnswerFlags(flags []string) (map[string]string, error) {
	m := map[string]string{}
	for _, f := range flags {
		id, v, ok := strings.Cut(f, "=")
		if !ok || id == "" {
			return nil, usageErrorf("--answer %q: want id=value", f)
		}
		m[id] = v
	}
	return m, nil
}

// jsonNumber returns s as a json.Number when it is a JSON number literal,
// so that its digits reach the tool unchanged.
func jsonNumber(s string) (json.Number, bool) {
	var n json.Number
	if err := decodeJSON(s, &n); err != nil || n == "" {
		return "", false
	}
	return n, true
}

// decodeJSON decodes exactly one JSON value from s, numbers as json.Number.
// An object holding a key twice is a *dupkey.Error.
func decodeJSON(s string, v any) error {
	if err := dupkey.Check([]byte(s)); err != nil {
		return err
	}
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("more than one JSON value")
	}
	return nil
}

// commandArgs returns the COMMAND… after "--": several tokens are the argv
// as given. A single token holding spaces is split like a TOML command
// string.
func commandArgs(args []string) ([]string, error) {
	if len(args) == 1 && strings.ContainsAny(args[0], " \t") {
		return config.SplitWords(args[0])
	}
	return args, nil
}
