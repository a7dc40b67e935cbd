package remote

import (
	"reflect"
	"testing"
	"time"

	"github.com/toolhost/toolhost/catalog"
)

func TestDefine(t *testing.T) {
	m, err := Decode([]byte(`{"protocol_version":"1.0","tools":[{"name":"rm","description":"Remove files.\n\nFor good.","category":"fs",
		"metadata":{"enabled_by_default":false,"requires_approval":true,"timeout_seconds":2.5,"idempotent":false,"read_only":false,"destructive":true,"open_world":"no","cost":3,
		"tags":["fs"],"examples":[{"description":"rm path=a"},{"description":""},{"description":"rm path=b"}]}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	got := define("x_", m.Tools[0])
	want := Definition{
		Tool: catalog.Tool{
			Definition: catalog.Definition{Name: "x_rm", Summary: "Remove files.",
				InputSchema: map[string]any{"type": "object", "properties": map[string]any{}},
				Annotations: map[string]any{"idempotentHint": false, "readOnlyHint": false, "destructiveHint": true}},
			Description: "Remove files.\n\nFor good.",
			Category:    "fs", Tags: []string{"fs"}, Examples: "rm path=a\nrm path=b",
			RequiresApproval: true, Enabled: false, Timeout: 2500 * time.Millisecond,
		},
		Remote:   "rm",
		Metadata: map[string]any{"read_only": false, "destructive": true, "open_world": "no", "cost": 3.0},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("define mismatch\n got: %+v\nwant: %+v", got, want)
	}
}
