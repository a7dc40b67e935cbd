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

// Cut says what [Result] left out of a result.
type Cut struct {
	Total   int    // the size of the whole result, in bytes
	Kept    int    // the size of what was kept
	Dropped int    // blocks left out whole
	Struct  bool   // the structured content was left out
	URI     string // where the whole result is kept; "" when it could not be
}

// Keeper keeps a whole result and returns the URI it can be read at.
type Keeper func(whole []byte) (uri string, err error)

// Result bounds res to max bytes (DefaultMax when max <= 0), counting
// text by its UTF-8 bytes, images and audio by their decoded bytes, and
// structured content by its JSON. It returns res itself when it fits.
// Otherwise it returns a new result and what was cut: keep, if set, is
// given the whole result's JSON first. res is never modified.
func Result(res *mcp.CallToolResult, max int, keep Keeper) (*mcp.CallToolResult, *Cut) {
	if max <= 0 {
		max = DefaultMax
	}
	total := 0
	for _, c := range res.Content {
		total += size(c)
	}
	var structured []byte
	if res.StructuredContent != nil {
		structured, _ = json.Marshal(res.StructuredContent)
		total += len(structured)
	}
	if total <= max {
		return res, nil
	}
	cut := &Cut{Total: total}
	if keep != nil {
		if whole, err := json.Marshal(res); err == nil {
			cut.URI, _ = keep(whole)
		}
	}
	out := &mcp.CallToolResult{Meta: res.Meta, IsError: res.IsError}
	left := max
	for _, c := range res.Content {
		n := size(c)
		if n <= left {
			out.Content = append(out.Content, c)
			left -= n
			cut.Kept += n
			continue
		}
		if t, ok := c.(*mcp.TextContent); ok && left > 0 {
			text := prefix(t.Text, left)
			out.Content = append(out.Content, &mcp.TextContent{Text: text, Meta: t.Meta, Annotations: t.Annotations})
			left -= len(text)
			cut.Kept += len(text)
			continue
		}
		cut.Dropped++
	}
	if structured != nil {
		if len(structured) <= left {
			out.StructuredContent = res.StructuredContent
			cut.Kept += len(structured)
		} else {
			cut.Struct = true
		}
	}
	out.Content = append(out.Content, &mcp.TextContent{Text: cut.Note(max)})
	if cut.URI != "" {
		whole := int64(total)
		out.Content = append(out.Content, &mcp.ResourceLink{URI: cut.URI, Name: "result",
			Title: "The whole result", MIMEType: "application/json", Size: &whole})
	}
	return out, cut
}

// Note is the text a cut result ends with, for the model.
func (c *Cut) Note(max int) string {
	var b strings.Builder
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

// Size writes a byte count for people: "512 B", "256 KiB", "5.0 MiB".
func Size(n int) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d B", n)
	case n < 1<<20:
		if n%(1<<10) == 0 {
			return fmt.Sprintf("%d KiB", n>>10)
		}
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
