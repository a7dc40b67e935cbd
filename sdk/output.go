package sdk

import (
	"encoding/base64"
	"fmt"
	"reflect"
	"strings"

	"github.com/toolhost/toolhost/tool"
)

// Result is the output of a tool function that returns more than text. It
// holds the text content and content blocks (protocol v2), such as an
// [Image]. Return it from a tool function: func(ctx, In) (sdk.Result, error).
//
// A host of protocol v1 has no blocks. It receives the text content, then
// the text of the text blocks. Each image, sound and link becomes one line
// naming it. Each embedded text resource gives its text.
type Result struct {
	Text   string       // the success content
	Blocks []tool.Block // more content: text, images, links to resources
}

// Image returns a content block holding an image, data encoded in base64.
// mime is its type, such as "image/png".
func Image(mime string, data []byte) tool.Block {
	return tool.Block{Type: tool.BlockImage, Data: base64.StdEncoding.EncodeToString(data), MimeType: mime}
}

// Audio returns a content block holding a sound, data encoded in base64.
// mime is its type, such as "audio/wav".
func Audio(mime string, data []byte) tool.Block {
	return tool.Block{Type: tool.BlockAudio, Data: base64.StdEncoding.EncodeToString(data), MimeType: mime}
}

// Resource returns a content block embedding a text resource whole. It
// holds the URI, an optional MIME type and the text (MCP's embedded
// resource).
func Resource(uri, mime, text string) tool.Block {
	return tool.Block{Type: tool.BlockResource, URI: uri, MimeType: mime, Text: text}
}

// Link returns a content block linking to a resource by URI, with a name
// and an optional MIME type.
func Link(uri, name, mime string) tool.Block {
	return tool.Block{Type: tool.BlockResourceLink, URI: uri, Name: name, MimeType: mime}
}

// Text returns a content block holding text.
func Text(text string) tool.Block {
	return tool.Block{Type: tool.BlockText, Text: text}
}

// output is what a tool function returned. It is not yet an outcome for a
// request of a given protocol version.
type output struct {
	content    string
	blocks     []tool.Block
	structured any  // the value, for its JSON
	stringer   bool // content came from a String method
}

var (
	stringType = reflect.TypeFor[string]()
	resultType = reflect.TypeFor[Result]()
)

// structuredType returns the type of a tool's structured output. That is
// nil for Out string and Result, else the struct Out is or points to. Other
// types are an error: an output schema is an object.
func structuredType(out reflect.Type) (reflect.Type, error) {
	if out == stringType || out == resultType {
		return nil, nil
	}
	t := out
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("output type %s is not a string, sdk.Result or a struct", out)
	}
	return t, nil
}

// makeOutput turns a tool function's result into an output.
func makeOutput(v any) (output, error) {
	switch v := v.(type) {
	case string:
		return output{content: v}, nil
	case Result:
		return output{content: v.Text, blocks: v.Blocks}, nil
	}
	if rv := reflect.ValueOf(v); rv.Kind() == reflect.Pointer && rv.IsNil() {
		return output{}, fmt.Errorf("the tool returned a nil %s and no error", rv.Type())
	}
	o := output{structured: v}
	if s, ok := v.(fmt.Stringer); ok {
		o.content, o.stringer = s.String(), true
	}
	return o, nil
}

// outcome returns the success outcome of out for a request of protocol
// version. v2 carries the structured value and the blocks. v1 has only
// text. So it gets the structured value's JSON when it has no String
// method, and the blocks as text.
func (out output) outcome(version string) (tool.Outcome, error) {
	o := tool.Success(out.content)
	for i, b := range out.blocks {
		if err := checkBlock(b); err != nil {
			return tool.Outcome{}, fmt.Errorf("block %d: %w", i, err)
		}
	}
	if version == tool.Version2 {
		o.Structured, o.Blocks = out.structured, out.blocks
		return o, nil
	}
	if out.structured != nil && !out.stringer {
		data, err := tool.Marshal(out.structured)
		if err != nil {
			return tool.Outcome{}, err
		}
		o.Content = string(data)
	}
	if len(out.blocks) > 0 {
		var b strings.Builder
		b.WriteString(o.Content)
		for _, bl := range out.blocks {
			if b.Len() > 0 {
				b.WriteString("\n")
			}
			switch bl.Type {
			case tool.BlockText:
				b.WriteString(bl.Text)
			case tool.BlockImage:
				fmt.Fprintf(&b, "[image: %s, %d bytes of base64]", bl.MimeType, len(bl.Data))
			case tool.BlockAudio:
				fmt.Fprintf(&b, "[audio: %s, %d bytes of base64]", bl.MimeType, len(bl.Data))
			case tool.BlockResourceLink:
				fmt.Fprintf(&b, "[%s: %s]", bl.Name, bl.URI)
			case tool.BlockResource:
				if bl.Text != "" {
					fmt.Fprintf(&b, "[%s]\n%s", bl.URI, bl.Text)
				} else {
					fmt.Fprintf(&b, "[%s: %d bytes of base64]", bl.URI, len(bl.Data))
				}
			}
		}
		o.Content = b.String()
	}
	return o, nil
}

// checkBlock reports a block hosts would refuse (tool.DecodeOutcomeV2). It
// then becomes an error outcome naming it rather than a protocol error.
func checkBlock(b tool.Block) error {
	switch b.Type {
	case tool.BlockText:
	case tool.BlockImage:
		if !strings.HasPrefix(b.MimeType, "image/") {
			return fmt.Errorf("image block: MIME type %q is not an image type (want e.g. \"image/png\")", b.MimeType)
		}
		if b.Data == "" {
			return fmt.Errorf("image block: no data")
		}
	case tool.BlockAudio:
		if !strings.HasPrefix(b.MimeType, "audio/") {
			return fmt.Errorf("audio block: MIME type %q is not an audio type (want e.g. \"audio/wav\")", b.MimeType)
		}
		if b.Data == "" {
			return fmt.Errorf("audio block: no data")
		}
	case tool.BlockResourceLink:
		if b.URI == "" || b.Name == "" {
			return fmt.Errorf("resource link block: a URI and a name are required")
		}
	case tool.BlockResource:
		if b.URI == "" {
			return fmt.Errorf("resource block: a URI is required")
		}
		if (b.Text == "") == (b.Data == "") {
			return fmt.Errorf("resource block: either a text or data is required")
		}
	default:
		return fmt.Errorf("unknown block type %q", b.Type)
	}
	return nil
}
