package mcpserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// screenPOST applies the stdio screen's rules on ids and keys (ids.go) to
// the body of a POST to the streamable HTTP endpoint. A message whose id
// the SDK would not echo exactly, or holding a key twice, is answered with
// 400 and a JSON-RPC error -32600. Its id is null, or the message's id for
// a key twice. The request then goes no further. Any other body is put
// back for the SDK, which answers what is malformed in other ways. It
// reports whether the request goes on.
func screenPOST(w http.ResponseWriter, r *http.Request) bool {
	if r.Method != http.MethodPost || r.Body == nil {
		return true
	}
	// Bounded as the SDK bounds it: a larger body is put back whole for
	// the SDK to refuse, not held here (Handler may be mounted without the
	// httpserver's MaxBytesReader).
	body, err := io.ReadAll(io.LimitReader(r.Body, mcp.DefaultMaxRequestBodyBytes+1))
	if err == nil && len(body) > mcp.DefaultMaxRequestBodyBytes {
		rest := r.Body
		r.Body = struct {
			io.Reader
			io.Closer
		}{io.MultiReader(bytes.NewReader(body), rest), rest}
		return true
	}
	if err != nil { // as the SDK answers it
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			http.Error(w, fmt.Sprintf("request body exceeds %d bytes", tooLarge.Limit), http.StatusRequestEntityTooLarge)
		} else {
			http.Error(w, "failed to read body", http.StatusBadRequest)
		}
		return false
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	if answer := screenBody(body); answer != nil {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		w.Write(answer)
		return false
	}
	return true
}

// screenBody is the error response to a POST body of one message, or a
// batch of them, that the screen refuses. It is nil when the body passes.
// It is nil too when the body is not JSON at all: the SDK says so.
func screenBody(body []byte) []byte {
	body = bytes.TrimSpace(body)
	if len(body) == 0 || !json.Valid(body) {
		return nil
	}
	var msgs []json.RawMessage // not starting as {body}: RawMessage reuses its bytes
	if body[0] != '[' {
		msgs = append(msgs, body)
	} else if json.Unmarshal(body, &msgs) != nil {
		return nil
	}
	var id json.RawMessage // of a single message, for the answer
	for _, m := range msgs {
		var fields map[string]json.RawMessage
		if len(m) == 0 || m[0] != '{' || json.Unmarshal(m, &fields) != nil {
			continue // not a message: the SDK refuses it
		}
		if p := idProblem(fields["id"], fields["method"]); p != nil {
			return errorAnswer(nil, jsonrpc.CodeInvalidRequest, fmt.Errorf("invalid request: %w", p))
		}
		if len(msgs) == 1 && string(fields["id"]) != "null" {
			id = fields["id"]
		}
	}
	return duplicateAnswer(body, id)
}
