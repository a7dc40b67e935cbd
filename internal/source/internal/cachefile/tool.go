package cachefile

import (
	"bytes"
	"encoding/json"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/tool"
)

// MarshalTool encodes t, the catalog's own type, for a snapshot. A tool
// with parameters leaves its input schema out: [UnmarshalTool] builds it
// from them again, as the binaries' merge does.
func MarshalTool(t *catalog.Tool) ([]byte, error) {
	if t.Parameters != nil && t.InputSchema != nil {
		cp := *t
		cp.InputSchema = nil
		t = &cp
	}
	return tool.Marshal(t)
}

// UnmarshalTool decodes what [MarshalTool] wrote. Numbers keep their
// digits (json.Number). Data after the tool is an error.
func UnmarshalTool(data []byte) (*catalog.Tool, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var t catalog.Tool
	if err := dec.Decode(&t); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, ErrFile
	}
	if t.InputSchema == nil && t.Parameters != nil {
		t.InputSchema = tool.InputSchema(t.Parameters)
	}
	return &t, nil
}
