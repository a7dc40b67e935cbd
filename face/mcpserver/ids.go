package mcpserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"unicode/utf16"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/internal/dupkey"
)

// Ids and keys: what the screens (stdio, and HTTP's POST bodies) refuse
// besides malformed messages, so that nothing reaches the SDK that it
// would read differently from the client.
//
// The SDK keeps an id as a string or an int64, and reads a number through
// a float64: 2^64 came back as -9223372036854775808, 1.5 as 1, 1e3 as
// 1000, 9007199254740993 as 9007199254740992. A client matching answers to
// its requests could not find its own. An id is therefore echoed exactly
// or refused:
//
//   - a string is echoed as the same string (its escapes may be written
//     differently). One holding an escape that is not a character (a lone
//     surrogate, "\ud800") is refused, as it would come back as U+FFFD.
//   - a number must be an integer written in plain decimal (no fraction,
//     no exponent, not -0) from -(2^53-1) to 2^53-1, the integers every
//     JSON reader keeps exactly (RFC 7493 §2.2). It is echoed digit for
//     digit. Any other number is refused.
//   - null is refused on a request: MCP says a request id is a string or
//     an integer, never null (JSON-RPC would read the request as a call
//     whose answer cannot be matched, the SDK as a notification that gets
//     none: the client waited forever). A message whose method is a
//     notification's ("notifications/…") is read as one, as before, and
//     a response may carry a null id.
//
// A refused id is answered with -32600 invalid request and id null, as
// JSON-RPC answers a request whose id cannot be read. Refusing rather than
// mapping such ids to ones the SDK keeps exactly is the smaller promise:
// MCP allows only strings and integers, the common clients number their
// requests from 0 or 1 or use strings, and a client that sends 2^64 learns
// at its first request, not when an answer goes missing.

// maxID is the largest integer id kept exactly: 2^53-1.
const maxID = 1<<53 - 1

// idProblem says why the raw id of a message cannot be echoed exactly,
// with the fix as a field. It is nil when the id can be echoed (or is
// absent). method is the message's raw method, nil for a response.
func idProblem(id, method json.RawMessage) error {
	switch {
	case id == nil:
		return nil
	case string(id) == "null":
		if method != nil && !bytes.HasPrefix(method, []byte(`"notifications/`)) {
			return catalog.Problem{Err: errors.New(`"id" must not be null: a request's id is a string or an integer`),
				Fix: `number your requests, or leave "id" out for a notification`}
		}
		return nil
	case id[0] == '"':
		if bytes.IndexByte(id, '\\') >= 0 && !wholeEscapes(id) {
			return catalog.Problem{Err: fmt.Errorf(`"id" %.40s holds an escape that is not a character, and would come back changed`, id),
				Fix: "use ids of plain characters"}
		}
		return nil
	case id[0] == '-' || '0' <= id[0] && id[0] <= '9':
		if integerID(id) {
			return nil
		}
		return catalog.Problem{Err: fmt.Errorf(`"id" %.40s cannot be echoed exactly: a numeric id must be an integer from -9007199254740991 to 9007199254740991, without fraction or exponent`, id),
			Fix: "number your requests from 1, or use string ids"}
	}
	return catalog.Problem{Err: fmt.Errorf(`"id" must be a string or a number, not %.40s`, id), Fix: "number your requests"}
}

// integerID reports whether a JSON number is an integer written in plain
// decimal, not -0, within ±maxID.
func integerID(n []byte) bool {
	digits := n
	if digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) == 0 || len(digits) > 16 || digits[0] == '0' && (len(digits) > 1 || len(n) > 1) {
		return false // 16 digits: maxID has 16; "-0" is not kept by the SDK
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return false
		}
	}
	v, err := strconv.ParseInt(string(digits), 10, 64)
	return err == nil && v <= maxID
}

// wholeEscapes reports whether every \u escape of a JSON string is a
// character: a surrogate only in a high-low pair.
func wholeEscapes(s []byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			continue
		}
		i++
		if i >= len(s) || s[i] != 'u' {
			continue
		}
		r, ok := hex4(s[i+1:])
		if !ok {
			return false
		}
		i += 4
		switch {
		case utf16.IsSurrogate(rune(r)) && r < 0xdc00: // high: a low must follow
			lo, ok := uint16(0), i+6 < len(s) && s[i+1] == '\\' && s[i+2] == 'u'
			if ok {
				lo, ok = hex4(s[i+3:])
			}
			if !ok || lo < 0xdc00 || lo > 0xdfff {
				return false
			}
			i += 6
		case utf16.IsSurrogate(rune(r)): // a low alone
			return false
		}
	}
	return true
}

// hex4 reads four hex digits.
func hex4(b []byte) (uint16, bool) {
	if len(b) < 4 {
		return 0, false
	}
	v, err := strconv.ParseUint(string(b[:4]), 16, 16)
	return uint16(v), err == nil
}

// duplicateAnswer is the error response to a message holding a key twice
// in one object, in "params", in "arguments" or anywhere. It is nil for
// any other message. The SDK and encoding/json keep the last value, while
// what a client, a proxy or an approval prompt showed may be the first. id
// is the message's id, answered with unless "id" itself is the key given
// twice.
func duplicateAnswer(msg []byte, id json.RawMessage) []byte {
	err := dupkey.Check(msg)
	if err == nil {
		return nil
	}
	var dup *dupkey.Error
	if errors.As(err, &dup) && dup.In == "" && dup.Key == "id" {
		id = nil
	}
	return errorAnswer(id, jsonrpc.CodeInvalidRequest, catalog.Problem{Err: fmt.Errorf("invalid request: %v: readers may take either value", err), Fix: "send each key once"})
}
