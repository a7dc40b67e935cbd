package catalog

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/internal/dupkey"
)

func TestDecodeArguments(t *testing.T) {
	tests := []struct {
		in, want, err, fix string
	}{
		{``, `{}`, "", ""},
		{` null `, `{}`, "", ""},
		{`{"n":12345678901234567890123}`, `{"n":12345678901234567890123}`, "", ""},
		{`[]`, "", "arguments must be a JSON object", ""},
		{`"x"`, "", "arguments must be a JSON object", ""},
		{`{"a":1} {}`, "", `arguments: unexpected data after the JSON object: "{}"`, ""},
		{`{"a":`, "", "arguments are not valid JSON: unexpected EOF", ""},
		{`{"path":"a.txt","path":"/etc/shadow"}`, "", `arguments: duplicate key "path"`, "send each key once"},
		{`{"opts":{"x":1,"\u0078":2}}`, "", `arguments: duplicate key "x" in /opts`, "send each key once"},
		{`{"a":[{"b":1,"b":1}]}`, "", `arguments: duplicate key "b" in /a/0`, "send each key once"},
	}
	for _, tt := range tests {
		got, err := DecodeArguments([]byte(tt.in))
		if tt.err != "" {
			if err == nil || err.Error() != tt.err || FixOf(err) != tt.fix {
				t.Errorf("DecodeArguments(%q) error = %v, fix %q; want %s, fix %q", tt.in, err, FixOf(err), tt.err, tt.fix)
			}
			continue
		}
		data, _ := json.Marshal(got)
		if err != nil || string(data) != tt.want {
			t.Errorf("DecodeArguments(%q) = %s, %v; want %s", tt.in, data, err, tt.want)
		}
	}
}

// TestWithFix: the fix follows the message on a line of its own, and
// nothing is added when there is none.
func TestWithFix(t *testing.T) {
	if got, want := WithFix("tool \"x\": timed out", "raise timeout"), "tool \"x\": timed out\nfix: raise timeout"; got != want {
		t.Errorf("WithFix = %q, want %q", got, want)
	}
	if got := WithFix("no fix", ""); got != "no fix" {
		t.Errorf("WithFix without a fix = %q, want %q", got, "no fix")
	}
}

// FuzzDecodeArguments: DecodeArguments never panics, accepts no object
// holding a key twice, and what it accepts the validator can check.
func FuzzDecodeArguments(f *testing.F) {
	for _, s := range []string{`{}`, `{"n":1e400}`, `{"n":1,"n":2}`, `{"o":{"k":1,"\u006b":2}}`, `{"a":[1,{"b":null}]}`, `null`, `[`, ` [1] `, `"x"`, `{"a":{"b":[null,true,1e400]}}`} {
		f.Add([]byte(s))
	}
	schema, err := CompileSchema(map[string]any{"type": "object", "properties": map[string]any{"n": map[string]any{"type": "integer", "minimum": 1}}})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		args, err := DecodeArguments(data)
		if err != nil {
			return
		}
		if dup := dupkey.Check(data); dup != nil {
			t.Fatalf("DecodeArguments(%q) accepted it: %v", data, dup)
		}
		if args == nil {
			t.Fatalf("DecodeArguments(%q) = nil map, nil error", data)
		}
		schema.Check(args) // must not panic, whatever the numbers
	})
}

func BenchmarkDecodeArguments(b *testing.B) {
	data := []byte(`{"path":"a.txt","n":3,"tags":["x","y"],"opts":{"deep":true}}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DecodeArguments(data); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzCompileSchema: any input schema a binary or a server may describe
// compiles or is refused with an error, never a panic. What compiles
// checks any arguments without a panic either, and says what is wrong
// whenever it refuses them.
func FuzzCompileSchema(f *testing.F) {
	f.Add(benchSchema, `{"path":"a.txt","limit":3}`)
	f.Add(`{"type":"object","properties":{"a":{"type":["string","null"],"minItems":2,"maximum":-0.5,"enum":[1e3,"x"]}}}`, `{"a":null}`)
	f.Add(`{"type":"object","$defs":{"p":{"type":"string"}},"properties":{"p":{"$ref":"#/$defs/p"}}}`, `{"p":1}`)
	f.Add(`{"type":"object","properties":{"n":{"type":"integer","minimum":1e400}}}`, `{"n":12345678901234567890}`)
	f.Add(`{"type":"object","$defs":{"n":{"properties":{"k":{"items":{"$ref":"#/$defs/n"}}},"required":["v"]}},"properties":{"t":{"$ref":"#/$defs/n"}}}`, `{"t":{"v":1,"k":[{"k":[{}]}]}}`)
	f.Add(`{"type":"object","properties":{"a":{"anyOf":[{"type":"string","minLength":2},{"const":1}],"uniqueItems":true,"propertyNames":{"maxLength":1}}}}`, `{"a":"x"}`)
	f.Add(`{"type":"object","$defs":{"a":{"$ref":"#/$defs/a"}},"properties":{"p":{"$ref":"#/$defs/a"}}}`, `{"p":1}`)
	f.Add(`{"type":"object","properties":{"a":{"type":"array","prefixItems":[{"not":{}}],"contains":{"type":"null"},"maxContains":1}}}`, `{"a":[null,null]}`)
	f.Fuzz(func(t *testing.T, schema, args string) {
		dec := json.NewDecoder(strings.NewReader(schema))
		dec.UseNumber()
		var m map[string]any
		if dec.Decode(&m) != nil {
			return
		}
		s, err := CompileSchema(m)
		if err != nil {
			return
		}
		if a, err := DecodeArguments([]byte(args)); err == nil {
			sent, problems := s.Check(a)
			if (sent == nil) != (len(problems) > 0) {
				t.Fatalf("Check = %v, %q: want arguments or problems", sent, problems)
			}
			if faults := s.Validate(a); (len(faults) > 0) != (len(problems) > 0) {
				t.Fatalf("Validate = %+v, Check's problems %q: they disagree", faults, problems)
			}
		}
	})
}

// TestUnknownArgumentNear: one unknown argument a typo away from one the
// tool takes and was not given is named as the likely one.
func TestUnknownArgumentNear(t *testing.T) {
	s, err := CompileSchema(map[string]any{"type": "object", "additionalProperties": false, "properties": map[string]any{
		"name": map[string]any{"type": "string"}, "times": map[string]any{"type": "integer"}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"nam": "Ada"}, `unknown argument "nam" (did you mean "name"? the tool takes "name", "times")`},
		{map[string]any{"name": "Ada", "nme": "x"}, `unknown argument "nme" (the tool takes "name", "times")`}, // name is given: not that one
		{map[string]any{"colour": "red"}, `unknown argument "colour" (the tool takes "name", "times")`},
		{map[string]any{"nam": "Ada", "tims": 2}, `unknown arguments "nam", "tims" (the tool takes "name", "times")`},
	} {
		if _, problems := s.Check(tt.args); len(problems) != 1 || problems[0] != tt.want {
			t.Errorf("Check(%v) = %q, want [%q]", tt.args, problems, tt.want)
		}
	}
}
