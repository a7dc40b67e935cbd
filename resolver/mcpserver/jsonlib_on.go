//go:build jsonlib

package mcpserver

import (
	"encoding/json"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// Built with the tag jsonlib (by `make bench` only), the stdio screen
// decodes a line's fields with github.com/go-json-experiment/json (v2):
// one Unmarshal checks UTF-8, syntax and duplicate keys and splits the
// fields, where screenLine runs utf8.Valid, json.Valid and json.Unmarshal.
// A line v2 refuses, or one the checks would answer, takes screenLine's
// path, which words the answer. See docs/dependencies.md.

// screenV2 is false while the benchmark measures screenLine's own path
// in this build.
var screenV2 = true

// fastScreen is screenLine of a line that passes every check, with v2.
func fastScreen(line []byte) (jsonrpc.Message, bool) {
	var fields map[string]jsontext.Value
	if !screenV2 || line[0] != '{' || jsonv2.Unmarshal(line, &fields) != nil {
		return nil, false
	}
	id := fields["id"]
	switch {
	case id == nil || string(id) == "null":
	case id[0] == '"' || id[0] == '-' || id[0] >= '0' && id[0] <= '9':
	default:
		return nil, false
	}
	if v := fields["jsonrpc"]; string(v) != `"2.0"` {
		return nil, false
	}
	if m := fields["method"]; m != nil && m[0] != '"' {
		return nil, false
	}
	if depth(line) > MaxDepth {
		return nil, false
	}
	raw := make(map[string]json.RawMessage, len(fields))
	for k, v := range fields {
		raw[k] = json.RawMessage(v)
	}
	msg, err := message(line, raw)
	return msg, err == nil
}
