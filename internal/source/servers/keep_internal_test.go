package servers

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/toolhost/toolhost/catalog"
)

// TestKeptToolFields: a kept tool carries every field of catalog.Tool a
// server's tool can have (all but Parameters and Dynamic, which a source
// never sets), through its JSON, numbers kept as written; a field added
// to catalog.Tool fails here until it is kept or listed as never set.
func TestKeptToolFields(t *testing.T) {
	never := map[string]bool{"Parameters": true, "Dynamic": true}
	want := &catalog.Tool{
		Definition: catalog.Definition{Name: "n", Summary: "s", InputSchema: map[string]any{"type": "object", "properties": map[string]any{
			"x": map[string]any{"type": "number", "default": json.Number("1.50")}}},
			Annotations: map[string]any{"readOnlyHint": true}, Title: "T", Icons: []catalog.Icon{{Src: "i.png"}},
			OutputSchema: map[string]any{"type": "object"}},
		Description: "d", Examples: "e", Category: "c", Tags: []string{"t"}, RequiresApproval: true, Timeout: time.Second,
		Enabled: true, RateLimit: 3, Source: "mcp.s.n", Provenance: map[string]string{"entry": "toolsets.s"},
		Run: catalog.RunAsk, Answers: map[string]any{"q": "a"}, CancellationResponse: "no",
	}
	v := reflect.ValueOf(*want)
	for i := range v.NumField() {
		if f := v.Type().Field(i); !never[f.Name] && v.Field(i).IsZero() {
			t.Fatalf("the test sets no %s: set it, so that keeping it is tested", f.Name)
		}
	}
	kt, err := keepTool(want)
	if err != nil {
		t.Fatal(err)
	}
	data, err := EncodeKept([]Kept{{Name: "mcp.s", Tools: []KeptTool{kt}}})
	if err != nil {
		t.Fatal(err)
	}
	ks, err := DecodeKept(data)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := ks[0].Tools[0].Tool(); err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("kept tool mismatch (%v):\n got %+v\nwant %+v", err, got, want)
	}
	for _, bad := range []string{``, `{}`, `pending`, "[{\"tools\":[]}]\n", "[{\"name\":\"mcp.s\",\"tools\":[{\"name\":\"n\",\"detail\":[0,5]}]}]\n{}"} {
		if _, err := DecodeKept([]byte(bad)); err == nil {
			t.Errorf("DecodeKept(%q) = nil error", bad)
		}
	}
}

// FuzzDecodeKept: what a persisted resolution's header holds of the
// sources is outside input; any bytes decode or give an error, never a
// panic, and what decodes encodes again.
func FuzzDecodeKept(f *testing.F) {
	f.Add([]byte("[{\"name\":\"mcp.s\",\"validity\":{\"cache\":{\"path\":\"/c\",\"size\":3},\"expires\":\"2026-01-01T00:00:00Z\"},\"tools\":[{\"name\":\"n\",\"summary\":\"s\",\"detail\":[0,82]}]}]\n" +
		`{"definition":{"name":"n","description":"s","inputSchema":{"type":"object"}},"source":"mcp.s.n"}`))
	f.Add([]byte(`pending`))
	f.Fuzz(func(t *testing.T, data []byte) {
		ks, err := DecodeKept(data)
		if err != nil {
			return
		}
		if _, err := EncodeKept(ks); err != nil {
			t.Errorf("EncodeKept of what decoded: %v", err)
		}
		for i := range ks {
			for _, kt := range ks[i].Tools {
				_, _ = kt.Tool()
			}
		}
	})
}
