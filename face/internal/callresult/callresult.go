package callresult

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/tool"
)

// ErrorText is what the model reads of a host error. It is the cause,
// then the fix on a line of its own.
func ErrorText(err error) string {
	return catalog.WithFix(err.Error(), catalog.FixOf(err))
}

// Outcome maps a success or error outcome. It maps a success's text and
// its content blocks (protocol v2: image, audio, resource link, embedded
// resource). It maps its structured value (structuredContent).
//
// An outcome may carry an MCP server's whole answer ([tool.Outcome].MCP).
// That is so for a tool served from an MCP server or a remote catalog.
// The result is that answer, unchanged.
func Outcome(out tool.Outcome) *mcp.CallToolResult {
	if out.MCP != nil {
		if res, ok := plainAnswer(out.MCP); ok {
			return res
		}
		var res mcp.CallToolResult
		if err := json.Unmarshal(out.MCP, &res); err == nil {
			return &res
		}
	}
	if out.Type != tool.KindSuccess {
		return Error(out.String())
	}
	res := &mcp.CallToolResult{StructuredContent: out.Structured}
	if out.Content != "" || out.Blocks == nil {
		res.Content = append(res.Content, &mcp.TextContent{Text: out.Content})
	}
	for _, b := range out.Blocks {
		switch b.Type {
		case tool.BlockText:
			res.Content = append(res.Content, &mcp.TextContent{Text: b.Text})
		case tool.BlockImage:
			data, err := base64.StdEncoding.DecodeString(b.Data) // checked when decoded
			if err == nil {
				res.Content = append(res.Content, &mcp.ImageContent{Data: data, MIMEType: b.MimeType})
			}
		case tool.BlockAudio:
			data, err := base64.StdEncoding.DecodeString(b.Data) // checked when decoded
			if err == nil {
				res.Content = append(res.Content, &mcp.AudioContent{Data: data, MIMEType: b.MimeType})
			}
		case tool.BlockResourceLink:
			res.Content = append(res.Content, &mcp.ResourceLink{URI: b.URI, Name: b.Name, MIMEType: b.MimeType})
		case tool.BlockResource:
			rc := &mcp.ResourceContents{URI: b.URI, MIMEType: b.MimeType, Text: b.Text}
			if b.Data != "" {
				data, err := base64.StdEncoding.DecodeString(b.Data) // checked when decoded
				if err != nil {
					continue
				}
				rc.Blob = data
			}
			res.Content = append(res.Content, &mcp.EmbeddedResource{Resource: rc})
		}
	}
	return res
}

// Error is the isError result whose one text block is text.
func Error(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}, IsError: true}
}

// QuestionText is the question as a human reads it.
func QuestionText(q tool.Question) string {
	if q.PreAmble != nil && *q.PreAmble != "" {
		return *q.PreAmble + "\n\n" + q.Text
	}
	return q.Text
}

// Elicit is the form elicitation asking qs. That is one question, or
// several asked together. It has one property per question, named after
// its id and typed by its answer type. The property has the question's
// default where it has a valid one.
func Elicit(qs []tool.Question) *mcp.ElicitParams {
	props := make(map[string]any, len(qs))
	required := make([]string, 0, len(qs))
	texts := make([]string, 0, len(qs))
	for _, q := range qs {
		props[q.ID] = formField(q)
		required = append(required, q.ID)
		texts = append(texts, QuestionText(q))
	}
	return &mcp.ElicitParams{
		Mode:    "form",
		Message: strings.Join(texts, "\n\n"),
		RequestedSchema: map[string]any{
			"type":       "object",
			"properties": props,
			"required":   required,
		},
	}
}

// formField is the elicitation schema of one question. Boolean becomes
// boolean, and Select a string enum. Number becomes number or integer
// with its bounds. Text becomes string. Secret becomes string, described
// as secret, as MCP forms have no hidden field. A default that fits the
// question is given.
func formField(q tool.Question) map[string]any {
	prop := map[string]any{"title": q.Text}
	a := q.AnswerType
	switch a.Kind {
	case tool.AnswerBoolean:
		prop["type"] = "boolean"
	case tool.AnswerSelect:
		choice := map[string]any{"type": "string", "enum": a.Options} // untitled (MCP SEP-1330)
		switch {
		case a.Titles != nil && a.LegacyTitles && !a.Multiple:
			choice["enumNames"] = a.Titles // the deprecated titled style
		case a.Titles != nil:
			titled := make([]any, len(a.Options))
			for i, o := range a.Options {
				titled[i] = map[string]any{"const": o, "title": a.Titles[i]}
			}
			choice = map[string]any{"type": "string", "oneOf": titled}
			if a.Multiple {
				choice = map[string]any{"anyOf": titled}
			}
		}
		if a.Multiple {
			prop["type"] = "array"
			prop["items"] = choice
		} else {
			maps.Copy(prop, choice)
		}
	case tool.AnswerNumber:
		prop["type"] = "number"
		if a.Integer {
			prop["type"] = "integer"
		}
		if a.Minimum != nil {
			prop["minimum"] = *a.Minimum
		}
		if a.Maximum != nil {
			prop["maximum"] = *a.Maximum
		}
	case tool.AnswerSecret:
		prop["type"] = "string"
		prop["description"] = "A secret: the tool receives it; toolhost neither logs nor shows it."
	default:
		prop["type"] = "string"
	}
	if q.Default != nil && q.Check(q.Default) == nil && a.Kind != tool.AnswerSecret {
		prop["default"] = q.Default
	}
	return prop
}

// FormKey is the input request key of several questions asked as one form.
// A single question is keyed by its id.
const FormKey = "form"

// InputKey is the input request key of qs. It is the question's id, or
// [FormKey] for several asked together.
func InputKey(qs []tool.Question) string {
	if len(qs) == 1 {
		return qs[0].ID
	}
	return FormKey
}

// ApprovalKey is the input request key of an approval (multi round-trip).
// ApproveField is the form's one boolean field.
const (
	ApprovalKey  = "approval"
	ApproveField = "approve"
)

// ApprovalParams is the form asking a person to approve a call. Its
// message is the call as the tool renders it. It has one boolean, false
// by default.
func ApprovalParams(a catalog.Approval) *mcp.ElicitParams {
	return &mcp.ElicitParams{
		Mode:    "form",
		Message: fmt.Sprintf("Run tool %q? It runs only once you approve this call:\n\n%s", a.Tool, a.Rendered),
		RequestedSchema: map[string]any{
			"type": "object",
			"properties": map[string]any{
				ApproveField: map[string]any{"type": "boolean", "title": "Run it", "default": false},
			},
			"required": []string{ApproveField},
		},
	}
}

// Questions is the result asking qs, a needs_input outcome's questions:
// one, or several asked together. The MCP server sends it so in a multi
// round-trip call, but here it has no request state. It holds the
// questions' text and one form elicitation. The form is keyed by the
// question's id, or "form" for several. It has one property per question,
// named after its id, titled with its text and typed by its answer type.
// The property has the question's default when that is a valid answer.
func Questions(qs []tool.Question) *mcp.CallToolResult {
	texts := make([]string, len(qs))
	for i, q := range qs {
		texts[i] = QuestionText(q)
	}
	return &mcp.CallToolResult{
		Content:       []mcp.Content{&mcp.TextContent{Text: strings.Join(texts, "\n\n")}},
		InputRequests: mcp.InputRequestMap{InputKey(qs): Elicit(qs)},
	}
}

// Approval is the result asking a person to approve a call, as the MCP
// server asks in a multi round-trip call. It is for other faces that
// answer with a CallToolResult, such as the HTTP call endpoint. It holds
// the call as the tool renders it as text, and the approval form keyed
// "approval" with one boolean, "approve". Its request state to send back
// is ticket, the one-time approval ticket the face issued for this call.
func Approval(a catalog.Approval, ticket string) *mcp.CallToolResult {
	p := ApprovalParams(a)
	return &mcp.CallToolResult{
		Content:       []mcp.Content{&mcp.TextContent{Text: p.Message}},
		InputRequests: mcp.InputRequestMap{ApprovalKey: p},
		RequestState:  ticket,
	}
}

// HostError is the isError result of a host error, such as a binary that
// is missing or timed out. It holds the message, then the fix on a line
// of its own.
func HostError(err error) *mcp.CallToolResult { return Error(ErrorText(err)) }
