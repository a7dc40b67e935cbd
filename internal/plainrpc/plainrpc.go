// Package plainrpc reads the members of a JSON-RPC message of plain
// shape in one pass, as the MCP SDK's decoder would read them. A plain
// string has no escapes. A plain id is absent, null, such a string or an
// integer exact as a float64. Two places build their messages with it and
// leave anything else to the SDK. One is the MCP face's screen, for
// requests from a client. The other is internal/source/mcp's stdio
// connection, for messages from a server.
package plainrpc

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// String returns the JSON string raw holds when it has no escapes and is
// valid UTF-8. A decoder replaces invalid bytes. It returns false
// otherwise.
func String(raw json.RawMessage) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' || bytes.IndexByte(raw, '\\') >= 0 || !utf8.Valid(raw) {
		return "", false
	}
	return string(raw[1 : len(raw)-1]), true
}

// ID returns the id raw holds. It is the zero ID when raw is absent (nil)
// or null. It is a string as [String] reads it, or an integer of at most
// 15 digits, exact as the float64 the SDK decodes it to. ID returns false
// for anything else.
func ID(raw json.RawMessage) (jsonrpc.ID, bool) {
	var id jsonrpc.ID
	switch {
	case raw == nil || string(raw) == "null":
		return id, true
	case raw[0] == '"':
		s, ok := String(raw)
		if !ok {
			return id, false
		}
		id, err := jsonrpc.MakeID(s)
		return id, err == nil
	}
	if len(raw) > 15 || bytes.ContainsAny(raw, ".eE+") {
		return id, false
	}
	n, err := strconv.ParseInt(string(raw), 10, 64)
	if err != nil {
		return id, false
	}
	id, err = jsonrpc.MakeID(float64(n))
	return id, err == nil
}
