package binary

import (
	"reflect"
	"testing"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/tool"
)

// TestOverlayEmpty checks that an entry without overrides of its own
// fields (the overlay that skips mergo) builds exactly the tool, provenance,
// input schema and warnings that the merge with mergo builds.
func TestOverlayEmpty(t *testing.T) {
	pos := func(line int) config.Position { return config.Position{File: "a.toml", Line: line} }
	full := func() *tool.Definition {
		return &tool.Definition{
			Name: "search", Summary: "Search files.", Description: "Greps the workspace.", Examples: "search pattern=x",
			Parameters: map[string]*tool.Parameter{
				"pattern": {Type: tool.Types{"string"}, Summary: "A regexp.", Required: ptr(true), Pattern: "^.+$"},
				"limit":   {Type: tool.Types{"integer", "null"}, Default: 100.0, Minimum: ptr(1.0), Maximum: ptr(1000.0)},
				"opts": {Type: tool.Types{"object"}, Properties: map[string]*tool.Parameter{
					"case": {Type: tool.Types{"boolean"}, Default: false},
					"tags": {Type: tool.Types{"array"}, Items: &tool.Parameter{Type: tool.Types{"string"}, Enum: []any{"a", "b"}}, MinItems: ptr(1)},
				}},
				"empty": nil,
			},
			Annotations: map[string]any{"readOnlyHint": true, "openWorldHint": false},
		}
	}
	v2 := func() *tool.Definition {
		return &tool.Definition{
			Name: "fetch", Summary: "Fetch a URL.", Title: "Fetch",
			Icons: []tool.Icon{{Src: "data:image/png;base64,AA==", MimeType: "image/png", Sizes: []string{"16x16"}}},
			InputSchema: map[string]any{"type": "object", "properties": map[string]any{
				"url": map[string]any{"type": "string"}, "depth": map[string]any{"$ref": "#/$defs/n"},
			}, "$defs": map[string]any{"n": map[string]any{"type": "integer"}}},
			OutputSchema: map[string]any{"type": "object"},
		}
	}
	entry := func(name string) config.Entry {
		return config.Entry{Name: name, Command: config.Command{Args: []string{"bin/sdk"}}, Tool: name,
			Pos:   map[string]config.Position{"command": pos(2), "tool": pos(3)},
			Place: pos(1)}
	}
	withParams := func(e config.Entry, params map[string]*tool.Parameter) config.Entry {
		e.Parameters = params
		e.Pos["parameters"] = pos(4)
		for p := range params {
			e.Pos["parameters."+p] = pos(5)
		}
		return e
	}
	tests := []struct {
		name  string
		bin   func() *tool.Definition // nil: the entry describes the tool alone
		entry config.Entry
	}{
		{"only command and tool", full, entry("search")},
		{"a bare definition", func() *tool.Definition { return &tool.Definition{Name: "x"} }, entry("x")},
		{"empty but set annotations and parameters", func() *tool.Definition {
			return &tool.Definition{Name: "x", Annotations: map[string]any{}, Parameters: map[string]*tool.Parameter{}}
		}, entry("x")},
		{"a v2 raw schema", v2, entry("fetch")},
		{"parameter overrides only", full, withParams(entry("search"), map[string]*tool.Parameter{
			"pattern": {Required: ptr(false)}, "limit": {Default: 0.0}, "nope": {Summary: "?"},
		})},
		{"v2 parameter overrides only", v2, withParams(entry("fetch"), map[string]*tool.Parameter{
			"url": {Summary: "Where."}, "depth": {Default: 2.0},
		})},
		{"TOML parameters", nil, withParams(entry("local"), map[string]*tool.Parameter{
			"path": {Type: tool.Types{"string"}}, "n": {Type: tool.Types{"integer"}, Default: 3.0},
		})},
		{"TOML parameters in JP's form", nil, func() config.Entry {
			e := withParams(entry("jp"), map[string]*tool.Parameter{"path": {Type: tool.Types{"string"}}})
			e.JPForm = true
			return e
		}()},
		{"no parameters at all", nil, entry("none")},
		// Set but empty: not empty to the overlay, so mergo merges them.
		{"empty annotations and tags", full, func() config.Entry {
			e := entry("search")
			e.Annotations, e.Tags = map[string]any{}, []string{}
			return e
		}()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := func(o func(*fields, fields)) (*catalog.Tool, []warning) {
				var bin *tool.Definition
				if tt.bin != nil {
					bin = tt.bin()
				}
				e := tt.entry
				return mergeWith(tt.entry.Name, bin, &e, o)
			}
			got, gotW := run(overlay)
			want, wantW := run(mergoOverlay)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("tool:\n got  %#v\n want %#v", got, want)
			}
			if !reflect.DeepEqual(gotW, wantW) {
				t.Errorf("warnings:\n got  %q\n want %q", gotW, wantW)
			}
		})
	}
}

// TestFieldsEmpty checks that empty looks at every field of fields: one
// added without it would be dropped when it is the only one set.
func TestFieldsEmpty(t *testing.T) {
	if f := (fields{}); !f.empty() {
		t.Fatal("the zero fields are not empty")
	}
	typ := reflect.TypeFor[fields]()
	for i := range typ.NumField() {
		var f fields
		v := reflect.ValueOf(&f).Elem().Field(i)
		switch v.Kind() {
		case reflect.Pointer:
			v.Set(reflect.New(v.Type().Elem()))
		case reflect.Map:
			v.Set(reflect.MakeMap(v.Type()))
		case reflect.Slice:
			v.Set(reflect.MakeSlice(v.Type(), 0, 0))
		default:
			t.Fatalf("field %s: kind %s: teach empty and this test about it", typ.Field(i).Name, v.Kind())
		}
		if f.empty() {
			t.Errorf("fields with only %s set is empty", typ.Field(i).Name)
		}
	}
}

// FuzzOverlayEmpty checks over any schema answer that an entry without
// overrides of its own fields builds the same tool with and without mergo,
// for the binary's definitions and for the same parameters given in TOML.
func FuzzOverlayEmpty(f *testing.F) {
	for _, seed := range []string{
		`{"tools":[{"name":"a"}]}`,
		`{"tools":[{"name":"a","summary":"S","description":"D","examples":"E","annotations":{"readOnlyHint":true},
			"parameters":{"p":{"type":"string","required":false},"q":{"type":["integer","null"],"default":3,"minimum":1},
			"o":{"type":"object","properties":{"x":{"type":"boolean"}}},"l":{"type":"array","items":{"enum":["a",1]}}}}]}`,
		`{"tools":[{"name":"a","annotations":{},"parameters":{}},{"name":"b","parameters":{"n":null}}]}`,
		`{"protocol":"2","tools":[{"name":"v","title":"V","icons":[{"src":"x.png","sizes":["1x1"]}],
			"input_schema":{"type":"object","properties":{"u":{"type":"string"}}},"output_schema":{"type":"object"}}]}`,
	} {
		f.Add([]byte(seed), false)
	}
	f.Fuzz(func(t *testing.T, data []byte, jp bool) {
		resp, err := tool.DecodeSchemaResponse(data)
		if err != nil {
			return
		}
		for i := range resp.Tools {
			name := resp.Tools[i].Name
			for _, fromTOML := range []bool{false, true} {
				run := func(o func(*fields, fields)) (*catalog.Tool, []warning) {
					// Fresh inputs for each run: the merge must not depend
					// on what the other did.
					again, _ := tool.DecodeSchemaResponse(data)
					bin := &again.Tools[i]
					e := config.Entry{Name: name, Command: config.Command{Args: []string{"bin/x"}}, Tool: name, JPForm: jp,
						Pos: map[string]config.Position{"command": {File: "a.toml", Line: 2}}, Place: config.Position{File: "a.toml", Line: 1}}
					if fromTOML {
						e.Parameters, bin = bin.Parameters, nil
					}
					return mergeWith(name, bin, &e, o)
				}
				got, gotW := run(overlay)
				want, wantW := run(mergoOverlay)
				if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotW, wantW) {
					t.Fatalf("tool %q (from TOML: %v):\n got  %#v %q\n want %#v %q", name, fromTOML, got, gotW, want, wantW)
				}
			}
		}
	})
}
