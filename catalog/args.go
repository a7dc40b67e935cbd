package catalog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/toolhost/toolhost/internal/dupkey"
	"github.com/toolhost/toolhost/internal/wirejson"
	"github.com/toolhost/toolhost/tool"
)

// DecodeArguments decodes a call's arguments as a face receives them from
// outside (an MCP tools/call, an HTTP body, `toolhost call --args`): one
// JSON object, or null or nothing for no arguments. Numbers stay
// json.Number. So every digit reaches the tool: an integer
// beyond 2^53 is not rounded through float64. A key twice in one object
// is refused, naming it: the error is a [Problem] whose Fix says to send
// each key once. The error says what is wrong without Go internals.
func DecodeArguments(data []byte) (map[string]any, error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || string(data) == "null" {
		return map[string]any{}, nil
	}
	if data[0] != '{' {
		return nil, errors.New("arguments must be a JSON object")
	}
	if err := dupkey.Check(data); err != nil {
		// encoding/json would keep the last value. What a prompt or a
		// proxy shows of the arguments might be the first.
		return nil, Problem{Err: fmt.Errorf("arguments: %w", err), Fix: "send each key once"}
	}
	args := map[string]any{}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&args); err != nil {
		return nil, fmt.Errorf("arguments are not valid JSON: %v", wirejson.Problem(err))
	}
	if rest := bytes.TrimSpace(data[dec.InputOffset():]); len(rest) > 0 {
		return nil, fmt.Errorf("arguments: unexpected data after the JSON object: %.40q", rest)
	}
	return args, nil
}

// forValidation returns a copy of a JSON value tree in which every
// json.Number is a Go number the validator understands: an integer that
// fits int64 (or uint64) as such, any other number as float64. Only
// validation sees the copy. The tool gets the digits as sent. Bounds on
// integers beyond 2^63 are checked to float64 precision.
func forValidation(v any) any {
	return mapScalars(v, func(v any) any {
		n, ok := v.(json.Number)
		if !ok {
			return v
		}
		s := n.String()
		if i, err := strconv.ParseInt(s, 10, 64); err == nil {
			return i
		}
		if u, err := strconv.ParseUint(s, 10, 64); err == nil {
			return u
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return s // not a number at all: let the type check name it
		}
		return f // ±Inf beyond float64's range: the bounds still apply
	})
}

// numbersAsJSON returns a copy of v with every Go number made a
// json.Number holding the digits JSON would write. Such a number is a
// default from the schema, or a value from a Go caller. So a tool always
// sees one kind of number.
// json.Number values are kept as they are.
func numbersAsJSON(v any) any { return mapScalars(v, numberAsJSON) }

// numberAsJSON is numbersAsJSON of one scalar.
func numberAsJSON(v any) any {
	switch v.(type) {
	case float64, float32, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		data, err := tool.Marshal(v)
		if err != nil { // NaN or ±Inf: not JSON; validation names it
			return v
		}
		return json.Number(data)
	}
	return v
}

// sentCopy is numbersAsJSON(jsonclone.Value(v)) in one pass. It makes a copy of
// a JSON value tree, with maps, slices and []string new, and every Go
// number made a json.Number. It reports false, and copies nothing, when
// the tree holds a map or struct of another type than map[string]any. Such
// a value comes from a Go caller. jsonschema-go's ApplyDefaults treats
// those by reflection, and ArgSchema.prepare leaves such arguments to it.
func sentCopy(v any) (any, bool) {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			c, ok := sentCopy(e)
			if !ok {
				return nil, false
			}
			out[k] = c
		}
		return out, true
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			c, ok := sentCopy(e)
			if !ok {
				return nil, false
			}
			out[i] = c
		}
		return out, true
	case []string:
		return slices.Clone(x), true
	case nil, string, bool, json.Number:
		return v, true
	}
	if k := reflect.ValueOf(v).Kind(); k == reflect.Map || k == reflect.Struct {
		return nil, false
	}
	return numberAsJSON(v), true
}

// mapScalars returns a copy of a JSON value tree (maps and slices are new:
// a default may be the schema's own value) with f applied to every leaf.
func mapScalars(v any, f func(any) any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = mapScalars(e, f)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = mapScalars(e, f)
		}
		return out
	}
	return f(v)
}

// jsonKind names the JSON type of a decoded value, as a message shows it.
func jsonKind(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case bool:
		return "boolean"
	case json.Number:
		if _, err := strconv.ParseInt(x.String(), 10, 64); err == nil || isIntegerLiteral(x.String()) {
			return "integer"
		}
		return "number"
	case float64:
		if x == math.Trunc(x) && !math.IsInf(x, 0) {
			return "integer" // as JSON Schema counts 42.0
		}
		return "number"
	case float32:
		return "number"
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return "integer"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	switch reflect.ValueOf(v).Kind() { // a value of a Go caller
	case reflect.Slice, reflect.Array:
		return "array"
	case reflect.Map, reflect.Struct:
		return "object"
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	}
	return "value"
}

// isIntegerLiteral reports whether s is a JSON number without fraction or exponent.
func isIntegerLiteral(s string) bool {
	s = strings.TrimPrefix(s, "-")
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// shownValue renders a value for a message: its JSON, shortened.
func shownValue(v any) string {
	data, err := tool.Marshal(v)
	if err != nil {
		return jsonKind(v)
	}
	s := string(data)
	if len(s) > 60 {
		s = s[:57] + "…"
	}
	return s
}
