//go:build jsonlib

package mcpserver

import (
	"bytes"
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

// fastScreen is screenLine of a line that passes every check and that
// plainRequest builds, with v2. It takes only what no check of screenLine
// can refuse (an id absent, a string without escapes or a canonical integer
// of at most 15 digits; each key once, which v2 checks) and leaves anything
// else to screenLine.
func fastScreen(line []byte) (jsonrpc.Message, bool) {
	var fields map[string]jsontext.Value
	if !screenV2 || line[0] != '{' || jsonv2.Unmarshal(line, &fields) != nil {
		return nil, false
	}
	if !plainID(fields["id"]) || string(fields["jsonrpc"]) != `"2.0"` || depth(line) > MaxDepth {
		return nil, false
	}
	raw := make(map[string]json.RawMessage, len(fields))
	for k, v := range fields {
		raw[k] = json.RawMessage(v)
	}
	req, ok := plainRequest(raw)
	return req, ok
}

// plainID reports whether id is absent, a string without escapes, or an
// integer of 1 to 15 digits without a sign or a leading zero.
func plainID(id jsontext.Value) bool {
	switch {
	case id == nil:
		return true
	case id[0] == '"':
		return bytes.IndexByte(id, '\\') < 0
	case len(id) > 15 || id[0] == '0' && len(id) > 1:
		return false
	}
	for _, c := range id {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
