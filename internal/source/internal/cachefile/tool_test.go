package cachefile

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/tool"
)

// TestToolRoundTrip: every field of catalog.Tool survives MarshalTool and
// UnmarshalTool, numbers kept as written; a field added to catalog.Tool
// fails here until the test sets it. A tool with parameters gets its
// input schema back from them.
func TestToolRoundTrip(t *testing.T) {
	params := map[string]*tool.Parameter{"x": {Type: tool.Types{"number"}, Summary: "an x", Default: json.Number("1.50")}}
	full := &catalog.Tool{
		Definition: catalog.Definition{Name: "n", Summary: "s", InputSchema: map[string]any{"type": "object"},
			Annotations: map[string]any{"readOnlyHint": true}, Title: "T", Icons: []catalog.Icon{{Src: "i.png"}},
			OutputSchema: map[string]any{"type": "object", "properties": map[string]any{"n": map[string]any{"default": json.Number("2.50")}}}},
		Description: "d", Examples: "e", Parameters: params, Category: "c", Tags: []string{"t"}, RequiresApproval: true,
		Timeout: time.Second, Enabled: true, Settings: tool.Settings{RateLimit: 3, MaxOutput: 4096}, Source: "bin/x", Dynamic: true,
		Provenance: map[string]string{"entry": "tools.n"}, Run: catalog.RunAsk, Answers: map[string]any{"q": json.Number("7")},
		CancellationResponse: "no",
	}
	v := reflect.ValueOf(*full)
	for i := range v.NumField() {
		if v.Field(i).IsZero() {
			t.Fatalf("the test sets no %s: set it, so that keeping it is tested", v.Type().Field(i).Name)
		}
	}
	full.InputSchema = tool.InputSchema(params) // as merge builds it
	raw := *full
	raw.Parameters, raw.InputSchema = nil, map[string]any{"type": "object", "properties": map[string]any{}}
	for name, want := range map[string]*catalog.Tool{"with parameters": full, "raw input schema": &raw} {
		data, err := MarshalTool(want)
		if err != nil {
			t.Fatal(err)
		}
		got, err := UnmarshalTool(data)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: round trip mismatch (%v):\n got %+v\nwant %+v", name, err, got, want)
		}
	}
	if _, err := UnmarshalTool([]byte(`{"name":"n"} {}`)); err == nil {
		t.Error("UnmarshalTool with data after the tool = nil error")
	}
}

// FuzzUnmarshalTool: a stored tool is outside input; any bytes decode or
// give an error, never a panic, and what decodes encodes again.
func FuzzUnmarshalTool(f *testing.F) {
	f.Add([]byte(`{"name":"n","description":"s","inputSchema":null,"Parameters":{"x":{"type":"number","default":1.50}},"Source":"bin/x"}`))
	f.Add([]byte(`{"name":"n","inputSchema":{"type":"object"},"Timeout":1000000000,"Answers":{"q":7}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		tl, err := UnmarshalTool(data)
		if err != nil {
			return
		}
		if _, err := MarshalTool(tl); err != nil {
			t.Errorf("MarshalTool of what decoded: %v", err)
		}
	})
}
