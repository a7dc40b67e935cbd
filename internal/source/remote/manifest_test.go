package remote_test

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/internal/source/remote"
)

func TestDecodeErrors(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"not JSON", `<html>`, "invalid character '<' looking for beginning of value"},
		{"not an object", `[1]`, "not a JSON object (a JSON array)"},
		{"two values", `{"protocol_version":"1.0","tools":[]} {}`, "more than one JSON value"},
		{"duplicate key", `{"protocol_version":"1.0","tools":[{"name":"a","name":"b"}]}`, `duplicate key "name" in /tools/0`},
		{"no version", `{"tools":[]}`, "no protocol_version"},
		{"version 2", `{"protocol_version":"2.0","tools":[]}`, `protocol_version "2.0" (this toolhost reads 1.x)`},
		{"no tools", `{"protocol_version":"1.0"}`, "no tools array"},
		{"too many tools", `{"protocol_version":"1.0","tools":[` + strings.Repeat(`{},`, remote.MaxTools) + `{}]}`, "10001 tools, more than 10000"},
		{"too big", `{"protocol_version":"1.0","tools":[],"x":"` + strings.Repeat("a", remote.MaxManifestBytes) + `"}`, "8388652 bytes, more than 8388608"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := remote.Decode([]byte(tt.in))
			if err == nil {
				t.Fatalf("Decode = %+v, want an error", m)
			}
			if want := "not a Tool Discovery Protocol 1.x manifest: " + tt.want; err.Error() != want {
				t.Errorf("error mismatch\n got: %s\nwant: %s", err, want)
			}
			if !errors.Is(err, remote.ErrManifest) {
				t.Errorf("errors.Is(%v, ErrManifest) = false", err)
			}
		})
	}
}

// TestDecodeLeavesOut: one bad tool or category is left out with a
// warning; the rest is served.
func TestDecodeLeavesOut(t *testing.T) {
	deep := strings.Repeat(`{"items":`, remote.MaxSchemaDepth) + `{}` + strings.Repeat(`}`, remote.MaxSchemaDepth)
	in := `{"protocol_version":"1.1","scenario":{"name":"p"},"generated_at":"yesterday","tools":[
		{"name":"ok","description":"Fine.","parameters":{"properties":{"a":{"type":"string"}}},"metadata":{"enabled_by_default":true,"cost":"high","tags":["x"]}},
		{"name":"bad name!","parameters":{}},
		{"name":"ok","description":"twice"},
		{"name":"str","parameters":{"type":"string"}},
		{"name":"props","parameters":{"properties":[]}},
		{"name":"deep","parameters":{"properties":{"p":` + deep + `}}},
		{"name":"long","description":"` + strings.Repeat("x", remote.MaxTextBytes+1) + `"},
		{"name":7},
		{"name":"bare"}
	],"categories":[{"id":"c","name":"C"},{"name":"no id"},{"id":"c"}]}`
	m, err := remote.Decode([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range m.Tools {
		names = append(names, tl.Name)
	}
	if fmt.Sprint(names) != "[ok bare]" {
		t.Errorf("tools %v, want [ok bare]", names)
	}
	wantWarnings := []string{
		`generated_at "yesterday" is not an RFC 3339 time`,
		`tools[1] "bad name!" left out: the name is not ^[a-zA-Z0-9_-]{1,64}$`,
		`tools[2] "ok" left out: the name is listed twice`,
		`tools[3] "str" left out: its parameters are not an object schema`,
		`tools[4] "props" left out: its parameters' properties are not an object`,
		`tools[5] "deep" left out: its parameters are nested deeper than 32`,
		`tools[6] "long" left out: its description is more than 65536 bytes`,
		`tools[7] left out: name: wrong type (a JSON number)`,
		`categories[1] left out: no id`,
		`categories[2] "c" left out: the id is listed twice`,
	}
	if !reflect.DeepEqual(m.Warnings, wantWarnings) {
		t.Errorf("warnings mismatch\n got: %q\nwant: %q", m.Warnings, wantWarnings)
	}
	ok := m.Tools[0]
	if got := fmt.Sprint(ok.Parameters); got != "map[properties:map[a:map[type:string]] type:object]" {
		t.Errorf("ok's parameters %s", got)
	}
	if got := fmt.Sprint(ok.Metadata.Extra); got != "map[cost:high]" || !*ok.Metadata.EnabledByDefault {
		t.Errorf("ok's metadata %+v", ok.Metadata)
	}
	if got := fmt.Sprint(m.Tools[1].Parameters); got != "map[properties:map[] type:object]" {
		t.Errorf("bare's parameters %s", got)
	}
	if len(m.Categories) != 1 || m.ProtocolVersion != "1.1" || !m.Generated.IsZero() || m.GeneratedAt != "yesterday" {
		t.Errorf("manifest %+v", m)
	}
}

// FuzzDecode: a manifest is outside input. Decode never panics, and what
// it accepts holds only servable tools: valid, distinct names and object
// schemas with properties.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`{"protocol_version":"1.0","scenario":{"name":"t","version":"1","description":"d","base_url":"http://h"},"tools":[{"name":"a","description":"A.","category":"c","parameters":{"type":"object","properties":{}},"metadata":{"enabled_by_default":true,"requires_approval":false,"timeout_seconds":60,"idempotent":true,"tags":["x"],"examples":[{"description":"e"}]}}],"categories":[{"id":"c","name":"C"}],"generated_at":"2026-01-01T00:00:00Z"}`,
		`{"protocol_version":"1","tools":[{"name":"a","parameters":{"properties":{"p":{"items":{"items":{}}}}}},{"name":"a"}]}`,
		`{"protocol_version":"1.0","tools":[{"name":"x","metadata":{"timeout_seconds":1e308,"enabled_by_default":null}}],"categories":[{}]}`,
		`{"protocol_version":"1.0","tools":[{"name":"x","name":"y"}]}`,
		`{"protocol_version":null,"tools":null}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := remote.Decode(data)
		if err != nil {
			if !errors.Is(err, remote.ErrManifest) {
				t.Fatalf("error %v does not wrap ErrManifest", err)
			}
			return
		}
		seen := map[string]bool{}
		for _, tl := range m.Tools {
			if seen[tl.Name] || tl.Name == "" || len(tl.Name) > 64 {
				t.Fatalf("tool name %q served (seen: %v)", tl.Name, seen[tl.Name])
			}
			seen[tl.Name] = true
			if _, ok := tl.Parameters["properties"].(map[string]any); !ok || tl.Parameters["type"] != "object" {
				t.Fatalf("tool %q served with parameters %v", tl.Name, tl.Parameters)
			}
		}
	})
}
