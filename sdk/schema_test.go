package sdk_test

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/toolhost/toolhost/sdk"
	"github.com/toolhost/toolhost/sdk/sdktest"
	"github.com/toolhost/toolhost/tool"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if string(got) != string(want) {
		t.Errorf("%s mismatch (-want +got)\n-%s\n+%s", path, want, got)
	}
}

// Address is a nested object parameter.
type Address struct {
	Street string `json:"street"`
	Zip    string `json:"zip,omitempty" jsonschema:"pattern=^[0-9]{5}$"`
}

// allTags uses every type and tag the package documentation lists.
type allTags struct {
	Path     string            `json:"path" jsonschema:"description=File to read\\, relative to the root."`
	Limit    int               `json:"limit,omitempty" jsonschema:"default=200,minimum=1,maximum=10000"`
	Ratio    float64           `json:"ratio,omitempty" jsonschema:"minimum=0,maximum=1.5"`
	Mode     string            `json:"mode,omitempty" jsonschema:"enum=text,enum=hex,default=text"`
	Level    int               `json:"level,omitempty" jsonschema:"enum=1,enum=2,enum=3"`
	Verbose  bool              `json:"verbose,omitempty" jsonschema:"default=false"`
	Force    bool              `json:"force"`
	Tags     []string          `json:"tags,omitempty" jsonschema:"minItems=1,maxItems=5"`
	Name     string            `json:"name,omitempty" jsonschema:"minLength=1,maxLength=64,format=hostname"`
	Long     string            `json:"long,omitempty" jsonschema_description:"A description, with commas, from its own tag."`
	Address  Address           `json:"address" jsonschema:"description=Where to send it."`
	Optional *Address          `json:"optional,omitempty"`
	Labels   map[string]string `json:"labels,omitempty"`
	Anything any               `json:"anything,omitempty"`
	When     time.Time         `json:"when,omitzero"`
	Maybe    *string           `json:"maybe,omitempty" jsonschema:"nullable,description=May be null."`
	Must     string            `json:"must,omitempty" jsonschema:"required"`
	NoTag    int
	Hidden   string `json:"-"`
	internal string
}

func noop[In any](ctx context.Context, in In) (string, error) { return "", nil }

// TestSchemaGolden pins the parameters reflected from input structs.
func TestSchemaGolden(t *testing.T) {
	tests := []struct {
		file string
		tool *sdk.Tool
	}{
		{"greet.json", sdk.New("greet", "Greet someone.", greet, nil)},
		{"all_tags.json", sdk.New("all_tags", "Every tag.", noop[allTags], &sdk.Options[allTags]{
			Description: "Longer text.",
			Examples:    "all_tags path=a.txt",
			Annotations: map[string]any{"readOnlyHint": true},
		})},
		{"no_params.json", sdk.New("no_params", "Takes nothing.", noop[struct{}], nil)},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			resp := sdktest.Schema(t, tt.tool)
			got, err := json.MarshalIndent(resp, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			golden(t, tt.file, append(got, '\n'))
		})
	}
}

// TestSchemaRequired checks the required rule on reflected parameters.
func TestSchemaRequired(t *testing.T) {
	resp := sdktest.Schema(t, sdk.New("all_tags", "", noop[allTags], nil))
	params := resp.Tools[0].Parameters
	want := map[string]bool{
		"path": true, "limit": false, "ratio": false, "mode": false, "level": false,
		"verbose": false, "force": true, "tags": false, "name": false, "long": false,
		"address": true, "optional": false, "labels": false, "anything": false,
		"when": false, "maybe": false, "must": true, "NoTag": true,
	}
	if len(params) != len(want) {
		t.Errorf("got %d parameters, want %d: %v", len(params), len(want), params)
	}
	for name, req := range want {
		p := params[name]
		if p == nil {
			t.Errorf("parameter %q missing", name)
			continue
		}
		if p.IsRequired() != req {
			t.Errorf("%s: required = %v, want %v", name, p.IsRequired(), req)
		}
	}
	addr := params["address"].Properties
	if !addr["street"].IsRequired() || addr["zip"].IsRequired() {
		t.Errorf("address: street required %v, zip required %v; want true, false", addr["street"].IsRequired(), addr["zip"].IsRequired())
	}
	// The tools/list schema a host derives must be an object schema.
	s := tool.InputSchema(params)
	if s["type"] != "object" || s["additionalProperties"] != false {
		t.Errorf("InputSchema = %v", s)
	}
}

// TestDefinitionIsACopy checks that callers cannot modify a tool's
// parameters through Definition.
func TestDefinitionIsACopy(t *testing.T) {
	tl := sdk.New("greet", "", greet, nil)
	d, err := tl.Definition()
	if err != nil {
		t.Fatal(err)
	}
	d.Parameters["name"].Summary = "changed"
	d.Parameters["extra"] = &tool.Parameter{}
	d2, _ := tl.Definition()
	if d2.Parameters["name"].Summary != "Who to greet." || d2.Parameters["extra"] != nil {
		t.Errorf("Definition shares state: %+v", d2.Parameters)
	}
}

// TestValidation checks argument validation against reflected constraints,
// with exact messages naming the fields.
func TestValidation(t *testing.T) {
	tl := sdk.New("all_tags", "", func(ctx context.Context, in allTags) (string, error) {
		b, err := json.Marshal(in)
		return string(b), err
	}, nil)
	base := func(extra map[string]any) map[string]any {
		m := map[string]any{"path": "a", "force": true, "address": map[string]any{"street": "s"}, "must": "m", "NoTag": 1}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	tests := []struct {
		name string
		args map[string]any
		want string // error message; "" for success
	}{
		{"minimal", base(nil), ""},
		{"limit below minimum", base(map[string]any{"limit": 0}), `limit: want at least 1, got 0`},
		{"ratio above maximum", base(map[string]any{"ratio": 2}), `ratio: want at most 1.5, got 2`},
		{"mode not in enum", base(map[string]any{"mode": "bin"}), `mode: want one of "text", "hex", got "bin"`},
		{"integer enum", base(map[string]any{"level": 4}), `level: want one of 1, 2, 3, got 4`},
		{"integer enum ok", base(map[string]any{"level": 2}), ""},
		{"too few items", base(map[string]any{"tags": []string{}}), `tags: want at least 1 items, got 0`},
		{"item type", base(map[string]any{"tags": []any{"a", 2}}), `tags[1]: want string, got number 2`},
		{"too short", base(map[string]any{"name": ""}), `name: want at least 1 characters, got 0`},
		{"nested missing", base(map[string]any{"address": map[string]any{}}), `missing required argument "address.street"`},
		{"nested pattern", base(map[string]any{"address": map[string]any{"street": "s", "zip": "1"}}), `address.zip: "1" does not match the pattern ^[0-9]{5}$`},
		{"nested unknown", base(map[string]any{"address": map[string]any{"street": "s", "x": 1}}), `unknown argument "address.x" (want one of: street, zip)`},
		{"nullable null", base(map[string]any{"maybe": nil}), ""},
		{"nullable string", base(map[string]any{"maybe": "x"}), ""},
		{"bool as string", base(map[string]any{"force": "true"}), `force: want boolean, got string "true"`},
		{"object as array", base(map[string]any{"address": []any{}}), `address: want object, got array []`},
		{"map of strings", base(map[string]any{"labels": map[string]any{"a": 1}}), `labels: want string, got number`},
		{"date-time", base(map[string]any{"when": "yesterday"}), `when: want a date-time such as 2006-01-02T15:04:05Z (RFC 3339), got "yesterday"`},
		{"date-time ok", base(map[string]any{"when": "2026-11-22T00:00:00Z"}), ""},
		{"int overflow", base(map[string]any{"NoTag": 1e300}), `NoTag: want an integer that fits int, got 1e+300`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := sdktest.Run(t, tl, tt.args, nil)
			if tt.want == "" {
				if o.Type != tool.KindSuccess {
					t.Errorf("got %s: %s, want success", o.Type, o)
				}
				return
			}
			want := `invalid arguments for tool "all_tags": ` + tt.want
			if o.Message != want {
				t.Errorf("message mismatch\nwant %q\ngot  %q", want, o.Message)
			}
		})
	}
}
