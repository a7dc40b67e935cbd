// Package bound bounds the result of a tool call that a model receives.
//
// A result over its bound keeps its first blocks, in order, up to the
// bound: text is cut at a character boundary, and an image, an audio
// clip or an embedded resource that does not fit is left out whole. Its
// _meta counts too: a cut result keeps it whole when it takes at most a
// quarter of the bound, else only the keys MCP Apps read ([AppKeys]). A
// last text block says what was left out and where the whole result is
// kept, and a resource link names it. The person's own views (the CLI,
// the tool page) show the whole result: they do not use this package.
package bound

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolhost/toolhost/internal/bytesize"
)

// DefaultMax is the bound of a result when its tool sets none: 256 KiB.
const DefaultMax = 256 << 10

// MinMax is the smallest bound [Result] applies: a smaller one is raised
// to it, so that the note of a cut result fits.
const MinMax = 1 << 10

// MaxBlocks is the most content blocks a result keeps: a flood of empty
// blocks, which count no bytes, is bounded too.
const MaxBlocks = 1000

// noteRoom is what a cut result keeps free for its note and its link.
// The longest note and link come to about 400 bytes.
const noteRoom = 512

// AppKeys are the keys of a result's _meta that MCP Apps read: where the
// result names its ui:// resource. A cut result keeps them when the rest
// of its _meta is too big to keep.
var AppKeys = []string{"ui", "ui/resourceUri"}

// Cut says what [Result] left out of a result.
type Cut struct {
	Total   int    // the size of the whole result, in bytes
	Kept    int    // the size of what was kept, the note and the link aside
	Dropped int    // blocks left out whole
	Struct  bool   // the structured content was left out
	Meta    bool   // the result's _meta was left out, whole or but for its AppKeys
	AppMeta bool   // of the _meta left out, its AppKeys were kept
	URI     string // where the whole result is kept; "" when it could not be
}

// Keeper keeps a whole result and returns the URI it can be read at.
type Keeper func(whole []byte) (uri string, err error)

// Result bounds res to max bytes (DefaultMax when max <= 0, at least
// MinMax) and MaxBlocks blocks. It counts text by its UTF-8 bytes, images
// and audio by their decoded bytes, and structured content and _meta by
// their JSON. A block's own _meta, annotations and icons count by their
// JSON too. It returns res itself when it fits. Otherwise it returns a
// copy of res whose content, note and link included, fits in max, and
// what was cut: keep, if set, is given the whole result's JSON first. res
// is never modified.
func Result(res *mcp.CallToolResult, max int, keep Keeper) (*mcp.CallToolResult, *Cut) {
	switch {
	case max <= 0:
		max = DefaultMax
	case max < MinMax:
		max = MinMax
	}
	total := 0
	for _, c := range res.Content {
		total += size(c)
	}
	structured, structuredExact := count(res.StructuredContent, max-total)
	total += structured
	meta, metaExact := count(map[string]any(res.Meta), max-total)
	total += meta
	if total <= max && len(res.Content) <= MaxBlocks {
		return res, nil
	}
	if !structuredExact { // an upper bound, that fit: count it exactly
		total -= structured
		structured = jsonSize(res.StructuredContent)
		total += structured
	}
	if !metaExact {
		total -= meta
		meta = jsonSize(res.Meta)
		total += meta
	}
	cut := &Cut{Total: total}
	var wholeSize int64
	if keep != nil {
		if whole, err := json.Marshal(res); err == nil {
			cut.URI, _ = keep(whole)
			wholeSize = int64(len(whole))
		}
	}
	out := *res
	out.Content, out.StructuredContent, out.Meta = nil, nil, nil
	left := max - noteRoom
	if res.Meta != nil {
		n := keptMeta(&out, res.Meta, meta, max/4)
		cut.Meta = len(out.Meta) < len(res.Meta)
		cut.AppMeta = cut.Meta && len(out.Meta) > 0
		left -= n
		cut.Kept += n
	}
	for _, c := range res.Content {
		n := size(c)
		if len(out.Content) >= MaxBlocks {
			cut.Dropped++
			continue
		}
		if n <= left {
			out.Content = append(out.Content, c)
			left -= n
			cut.Kept += n
			continue
		}
		if t, ok := c.(*mcp.TextContent); ok {
			if p, n := cutText(t, left); p != nil {
				out.Content = append(out.Content, p)
				left -= n
				cut.Kept += n
				continue
			}
		}
		cut.Dropped++
	}
	if res.StructuredContent != nil {
		if structured <= left {
			out.StructuredContent = res.StructuredContent
			cut.Kept += structured
		} else {
			cut.Struct = true
		}
	}
	out.Content = append(out.Content, &mcp.TextContent{Text: cut.Note(max)})
	if cut.URI != "" {
		out.Content = append(out.Content, &mcp.ResourceLink{URI: cut.URI, Name: "result",
			Title: "The whole result", MIMEType: "application/json", Size: &wholeSize})
	}
	return &out, cut
}

// count counts v toward a bound: an upper bound of the size of its JSON
// when that fits in limit, else the size itself (exact). Nil counts 0.
func count(v any, limit int) (n int, exact bool) {
	switch v := v.(type) {
	case nil:
		return 0, true
	case map[string]any:
		if v == nil {
			return 0, true
		}
	}
	if n, ok := upperSize(v, limit); ok {
		return n, false
	}
	return jsonSize(v), true
}

// keptMeta sets out's _meta to what a cut result keeps of meta, whose
// JSON is size bytes, and returns the bytes it counts. It keeps meta
// whole when it takes at most room bytes. Otherwise it keeps meta's
// AppKeys alone, when they take at most room bytes, and else nothing.
func keptMeta(out *mcp.CallToolResult, meta mcp.Meta, size, room int) int {
	if size <= room {
		out.Meta = meta
		return size
	}
	app := mcp.Meta{}
	for _, k := range AppKeys {
		if v, ok := meta[k]; ok {
			app[k] = v
		}
	}
	if len(app) == 0 {
		return 0
	}
	n := jsonSize(app)
	if n > room {
		return 0
	}
	out.Meta = app
	return n
}

// cutText is the longest prefix of t that fits in left bytes, as a
// block, and the bytes it counts; nil when no whole character fits. The
// prefix keeps t's _meta and annotations when they fit beside some of
// its text, and leaves them out otherwise.
func cutText(t *mcp.TextContent, left int) (*mcp.TextContent, int) {
	if extra := size(t) - len(t.Text); extra > 0 && left > extra {
		if text := prefix(t.Text, left-extra); text != "" {
			return &mcp.TextContent{Text: text, Meta: t.Meta, Annotations: t.Annotations}, len(text) + extra
		}
	}
	if left <= 0 {
		return nil, 0
	}
	if text := prefix(t.Text, left); text != "" {
		return &mcp.TextContent{Text: text}, len(text)
	}
	return nil, 0
}

// upperSize bounds the size of v's JSON without encoding it, for the
// values JSON decodes to. ok is false when the bound exceeds limit, or v
// holds a value of another type. A string counts six bytes a byte, as if
// every byte were escaped (\u00XX).
func upperSize(v any, limit int) (n int, ok bool) {
	if limit < 0 {
		return 0, false
	}
	switch v := v.(type) {
	case nil:
		n = 4
	case bool:
		n = 5
	case string:
		n = 2 + 6*len(v)
	case json.Number:
		n = len(v)
	case json.RawMessage:
		n = len(v)
	case float64, int, int64:
		n = 24
	case []any:
		n = 2 + len(v)
		for _, e := range v {
			m, ok := upperSize(e, limit-n)
			if !ok {
				return 0, false
			}
			n += m
		}
	case map[string]any:
		n = 2 + 2*len(v)
		for k, e := range v {
			m, ok := upperSize(e, limit-n-2-6*len(k))
			if !ok {
				return 0, false
			}
			n += 2 + 6*len(k) + m
		}
	default:
		return 0, false
	}
	return n, n <= limit
}

// jsonSize is the size of v's JSON: the bytes themselves for a value
// that is JSON already.
func jsonSize(v any) int {
	switch v := v.(type) {
	case json.RawMessage:
		return len(v)
	}
	data, _ := json.Marshal(v)
	return len(data)
}

// Note is the text a cut result ends with, for the model.
func (c *Cut) Note(max int) string {
	var b strings.Builder
	if c.Total == c.Kept { // only blocks beyond MaxBlocks were left out
		fmt.Fprintf(&b, "[toolhost: this result was cut to its first %d blocks: %d more left out", MaxBlocks, c.Dropped)
		if c.URI != "" {
			fmt.Fprintf(&b, ". The whole result is the resource %s (resources/read)", c.URI)
		}
		b.WriteString(".]")
		return b.String()
	}
	fmt.Fprintf(&b, "[toolhost: this result was cut to its first %s of %s (the bound is %s): %s left out",
		size64(c.Kept), size64(c.Total), size64(max), size64(c.Total-c.Kept))
	var what []string
	if c.Dropped > 0 {
		what = append(what, fmt.Sprintf("%d whole %s", c.Dropped, plural(c.Dropped, "block", "blocks")))
	}
	if c.Struct {
		what = append(what, "the structured content")
	}
	switch {
	case c.AppMeta:
		what = append(what, "the _meta but its keys for MCP Apps")
	case c.Meta:
		what = append(what, "the _meta")
	}
	if len(what) > 0 {
		fmt.Fprintf(&b, ", %s among it", strings.Join(what, " and "))
	}
	if c.URI != "" {
		fmt.Fprintf(&b, ". The whole result is the resource %s (resources/read)", c.URI)
	}
	b.WriteString(".]")
	return b.String()
}

// size is a content block's size as the bound counts it: its payload,
// and the JSON of its _meta and annotations (and a link's icons).
func size(c mcp.Content) int {
	switch c := c.(type) {
	case *mcp.TextContent:
		return len(c.Text) + extra(c.Meta, c.Annotations)
	case *mcp.ImageContent:
		return len(c.Data) + extra(c.Meta, c.Annotations)
	case *mcp.AudioContent:
		return len(c.Data) + extra(c.Meta, c.Annotations)
	case *mcp.EmbeddedResource:
		n := extra(c.Meta, c.Annotations)
		if r := c.Resource; r != nil {
			n += len(r.Text) + len(r.Blob) + extra(r.Meta, nil)
		}
		return n
	case *mcp.ResourceLink:
		n := len(c.URI) + len(c.Name) + len(c.Title) + len(c.Description) + extra(c.Meta, c.Annotations)
		if c.Icons != nil {
			n += jsonSize(c.Icons)
		}
		return n
	}
	data, _ := json.Marshal(c)
	return len(data)
}

// extra is the size of the JSON of a block's _meta and annotations, 0
// when it has neither.
func extra(meta mcp.Meta, ann *mcp.Annotations) int {
	n := 0
	if meta != nil {
		n += jsonSize(meta)
	}
	if ann != nil {
		n += jsonSize(ann)
	}
	return n
}

// prefix is the longest prefix of s of at most n bytes that ends at a
// character boundary.
func prefix(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// size64 is bytesize.Format of an int.
func size64(n int) string { return bytesize.Format(int64(n)) }
