package catalog

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// TestDefaultsAsApplyDefaults checks that the precomputed defaults
// (ArgSchema.defaults) prepare the same arguments as jsonschema-go's
// ApplyDefaults, which prepare runs when defaults is nil.
func TestDefaultsAsApplyDefaults(t *testing.T) {
	schema := `{"type":"object","required":["req"],"properties":{
		"req":{"type":"string","default":"not applied: required"},
		"s":{"type":"string","default":"x"},
		"n":{"type":"number","default":1.5},
		"big":{"type":"integer","default":12345678901234567890},
		"nul":{"default":null},
		"nullable":{"type":["string","null"],"default":"d"},
		"list":{"type":"array","default":[1,{"a":2}]},
		"obj":{"type":"object","default":{"k":1},"properties":{"inner":{"type":"integer","default":7}}},
		"parent":{"type":"object","properties":{"child":{"type":"string","default":"c"},"deep":{"type":"object","properties":{"leaf":{"type":"boolean","default":true}}}}},
		"onlyRequired":{"type":"object","required":["r"],"properties":{"r":{"type":"string","default":"r"}}},
		"plain":{"type":"object","properties":{"none":{"type":"string"}}}
	}}`
	var s map[string]any
	if err := json.Unmarshal([]byte(schema), &s); err != nil {
		t.Fatal(err)
	}
	a, err := CompileSchema(s)
	if err != nil {
		t.Fatal(err)
	}
	if a.defaults == nil {
		t.Fatal("the defaults were not precomputed")
	}
	byReflection := *a
	byReflection.defaults = nil
	for _, args := range []string{
		`null`, `{}`, `{"req":"r"}`,
		`{"req":"r","s":null,"n":null,"nullable":null,"obj":null}`,
		`{"s":"given","n":2,"big":1e400,"list":[],"obj":{},"parent":{"deep":{}},"onlyRequired":{}}`,
		`{"obj":{"k":{"inner":1}},"parent":"not an object","plain":{"none":1},"unknown":{"x":null}}`,
		`{"parent":{"child":null,"deep":[1]}}`,
	} {
		var m map[string]any
		dec := json.NewDecoder(strings.NewReader(args))
		dec.UseNumber()
		if err := dec.Decode(&m); err != nil {
			t.Fatal(err)
		}
		gotSent, gotShadow, err := a.prepare(m)
		if err != nil {
			t.Fatalf("%s: %v", args, err)
		}
		wantSent, wantShadow, err := byReflection.prepare(m)
		if err != nil {
			t.Fatalf("%s: ApplyDefaults: %v", args, err)
		}
		if !reflect.DeepEqual(gotSent, wantSent) || !reflect.DeepEqual(gotShadow, wantShadow) {
			t.Errorf("%s:\nsent   %#v\nwant   %#v\nshadow %#v\nwant   %#v", args, gotSent, wantSent, gotShadow, wantShadow)
		}
	}
	// A Go caller's map of another type goes to ApplyDefaults.
	goArgs := map[string]any{"parent": map[string]string{"child": "g"}, "n": 3}
	gotSent, _, err := a.prepare(goArgs)
	wantSent, _, wantErr := byReflection.prepare(goArgs)
	if (err == nil) != (wantErr == nil) || !reflect.DeepEqual(gotSent, wantSent) {
		t.Errorf("Go map: got %#v, %v; want %#v, %v", gotSent, err, wantSent, wantErr)
	}
}
