package tool

import (
	"encoding/json"
	"testing"
)

// TestDecodeRequestNumbersExact holds the request decoder to the host's
// promise that numbers keep their digits: every number in arguments,
// answers and options decodes as the json.Number written, and the request
// re-encodes (with Marshal, the stdin encoder) byte for byte.
func TestDecodeRequestNumbersExact(t *testing.T) {
	tests := []struct {
		name string
		json string // the value of arguments.n
	}{
		{"int64 max", "9223372036854775807"},
		{"int64 min", "-9223372036854775808"},
		{"2^53+1", "9007199254740993"},
		{"uint64 max", "18446744073709551615"},
		{"30 digits", "123456789012345678901234567890"},
		{"exponent", "1e3"},
		{"fraction", "1.5"},
		{"beyond float64", "1e400"},
		{"negative zero", "-0"},
		{"long fraction", "0.10000000000000000000000000001"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := `{"protocol":"1","context":{"action":"run","root":"/w","workspace_id":"w","conversation_id":"c","access":null},` +
				`"tool":{"name":"t","arguments":{"list":[{"n":` + tt.json + `}],"n":` + tt.json + `},"answers":{"n":` + tt.json + `},"options":{"n":` + tt.json + `}}}`
			req, err := DecodeRequest([]byte(in))
			if err != nil {
				t.Fatal(err)
			}
			for what, got := range map[string]any{
				"arguments.n":         req.Tool.Arguments["n"],
				"arguments.list[0].n": req.Tool.Arguments["list"].([]any)[0].(map[string]any)["n"],
				"answers.n":           req.Tool.Answers["n"],
				"options.n":           req.Tool.Options["n"],
			} {
				if got != json.Number(tt.json) {
					t.Errorf("%s = %#v, want json.Number(%q)", what, got, tt.json)
				}
			}
			out, err := Marshal(req)
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != in {
				t.Errorf("round trip mismatch\nwant: %s\ngot:  %s", in, out)
			}
		})
	}
}
