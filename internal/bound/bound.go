// Package bound bounds the result of a tool call that a model receives.
//
// A result over its bound keeps its first blocks, in order, up to the
// bound: text is cut at a character boundary, and an image, an audio
// clip or an embedded resource that does not fit is left out whole. A
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

// Cut says what [Result] left out of a result.
type Cut struct {
	Total   int    // the size of the whole result, in bytes
	Kept    int    // the size of what was kept, the note and the link aside
	Dropped int    // blocks left out whole
	Struct  bool   // the structured content was left out
	URI     string // where the whole result is kept; "" when it could not be
}

// Keeper keeps a whole result and returns the URI it can be read at.
type Keeper func(whole []byte) (uri string, err error)

// Result bounds res to max bytes (DefaultMax when max <= 0, at least
// MinMax) and MaxBlocks blocks. It counts text by its UTF-8 bytes, images
// and audio by their decoded bytes, and structured content by its JSON.
// It returns res itself when it fits. Otherwise it returns a copy of res
// whose content, note and link included, fits in max, and what was cut:
// keep, if set, is given the whole result's JSON first. res is never
// modified.
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
	var structured int
	if res.StructuredContent != nil {
		if n, ok := upperSize(res.StructuredContent, max-total); ok {
			structured = n // at most n bytes, and they fit: the result is not cut
		} else {
			structured = jsonSize(res.StructuredContent)
		}
		total += structured
	}
	if total <= max && len(res.Content) <= MaxBlocks {
		return res, nil
	}
	if res.StructuredContent != nil && total <= max { // structured holds a bound: count it exactly
		total -= structured
		structured = jsonSize(res.StructuredContent)
		total += structured
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
	out.Content, out.StructuredContent = nil, nil
	left := max - noteRoom
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
		if t, ok := c.(*mcp.TextContent); ok && left > 0 && prefix(t.Text, left) != "" {
			text := prefix(t.Text, left)
			out.Content = append(out.Content, &mcp.TextContent{Text: text, Meta: t.Meta, Annotations: t.Annotations})
			left -= len(text)
			cut.Kept += len(text)
			continue
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
		Size(c.Kept), Size(c.Total), Size(max), Size(c.Total-c.Kept))
	var what []string
	if c.Dropped > 0 {
		what = append(what, fmt.Sprintf("%d whole %s", c.Dropped, plural(c.Dropped, "block", "blocks")))
	}
	if c.Struct {
		what = append(what, "the structured content")
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

// size is a content block's size as the bound counts it.
func size(c mcp.Content) int {
	switch c := c.(type) {
	case *mcp.TextContent:
		return len(c.Text)
	case *mcp.ImageContent:
		return len(c.Data)
	case *mcp.AudioContent:
		return len(c.Data)
	case *mcp.EmbeddedResource:
		if c.Resource == nil {
			return 0
		}
		return len(c.Resource.Text) + len(c.Resource.Blob)
	case *mcp.ResourceLink:
		return len(c.URI) + len(c.Name) + len(c.Title) + len(c.Description)
	}
	data, _ := json.Marshal(c)
	return len(data)
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

// Size writes a byte count for people, with at most one decimal:
// "512 B", "256 KiB", "1.5 MiB".
func Size(n int) string {
	unit, div := "MiB", float64(1<<20)
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d B", n)
	case n < 1<<20:
		unit, div = "KiB", 1<<10
	}
	return strings.TrimSuffix(fmt.Sprintf("%.1f", float64(n)/div), ".0") + " " + unit
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
