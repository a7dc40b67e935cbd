package callresult

import (
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// plainAnswer decodes an MCP server's answer ([tool.Outcome].MCP) of the
// shape most tools answer with. That shape is text blocks alone
// ({"type":"text","text":…}) beside isError and structuredContent. It
// decodes as CallToolResult's own decoder does. TestPlainAnswer and
// FuzzPlainAnswer compare the two. But it does without the go-sdk's
// decoder. That decoder takes a buffer of 32 KiB for each answer and
// another for each of its nested decodes. Any other member or block
// reports false. The go-sdk decodes those.
func plainAnswer(data []byte) (*mcp.CallToolResult, bool) {
	var fields map[string]json.RawMessage
	if json.Unmarshal(data, &fields) != nil || fields == nil {
		return nil, false
	}
	res := &mcp.CallToolResult{}
	var blocks []map[string]json.RawMessage
	for k, v := range fields {
		var err error
		switch k {
		case "content":
			err = json.Unmarshal(v, &blocks)
		case "isError":
			err = json.Unmarshal(v, &res.IsError)
		case "structuredContent":
			err = json.Unmarshal(v, &res.StructuredContent)
		default:
			return nil, false
		}
		if err != nil {
			return nil, false
		}
	}
	res.Content = make([]mcp.Content, 0, len(blocks))
	for _, b := range blocks {
		text, ok := b["text"]
		if len(b) != 2 || string(b["type"]) != `"text"` || !ok {
			return nil, false
		}
		var s string
		if json.Unmarshal(text, &s) != nil {
			return nil, false
		}
		res.Content = append(res.Content, &mcp.TextContent{Text: s})
	}
	return res, true
}
