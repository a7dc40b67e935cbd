package mcp

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

func init() {
	// hoard speaks JSON-RPC by hand and lists more than a client should
	// read, as $FAKE_HOARD says: "many" (MaxTools+1 small tools in one
	// page), "endless" (pages of 500 tools, each with a next cursor),
	// "fat" (few tools with 1 MiB descriptions, one page each) or "huge"
	// (one message over MaxMessageBytes).
	fakeServers["hoard"] = hoard
}

func hoard() int {
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(nil, 1<<20)
	w := bufio.NewWriterSize(os.Stdout, 1<<20)
	page := 0
	for sc.Scan() {
		line := sc.Text()
		id := ""
		if i := strings.Index(line, `"id":`); i >= 0 {
			id = strings.TrimRight(strings.SplitN(line[i+5:], ",", 2)[0], "}")
		}
		switch {
		case id == "":
			continue
		case strings.Contains(line, `"initialize"`):
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"hoard","version":"0"}}}`+"\n", id)
		case strings.Contains(line, `"tools/list"`):
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"tools":[`, id)
			n, desc, next := 0, "", ""
			switch os.Getenv("FAKE_HOARD") {
			case "many":
				n = MaxTools + 1
			case "endless":
				n, next = 500, `,"nextCursor":"p`+strconv.Itoa(page+1)+`"`
			case "fat":
				n, desc, next = 1, strings.Repeat("d", 1<<20), `,"nextCursor":"p`+strconv.Itoa(page+1)+`"`
			case "huge":
				n, desc = 1, strings.Repeat("d", MaxMessageBytes)
			}
			for i := range n {
				if i > 0 {
					w.WriteString(",")
				}
				fmt.Fprintf(w, `{"name":"t%d_%d","description":%q,"inputSchema":{"type":"object"}}`, page, i, desc)
			}
			fmt.Fprintf(w, `]%s}}`+"\n", next)
			page++
		default:
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"method not found"}}`+"\n", id)
		}
		w.Flush()
	}
	return 0
}

// TestListingBounded: a server's listing is bounded in total, over all
// its pages, in tools and in bytes, and a message over MaxMessageBytes is
// reported as too large: each is ErrTooLarge naming the bound, and none
// of its tools is served.
func TestListingBounded(t *testing.T) {
	const fix = "none of the server's tools is served: its listing is over toolhost's bound; report it to the server's authors"
	for _, tt := range []struct {
		mode, want, fix string
	}{
		{"many", `mcp server "hoard": list: the server sent too much: it lists more than 10000 tools`, fix},
		{"endless", `mcp server "hoard": list: the server sent too much: it lists more than 10000 tools`, fix},
		{"fat", `mcp server "hoard": list: the server sent too much: its tools' definitions are more than 8 MiB`, fix},
		{"huge", `mcp server "hoard": list: the server sent too much: the server sent a message larger than 16 MiB`,
			"toolhost reads no message over this bound; report it to the server's authors"},
	} {
		t.Run(tt.mode, func(t *testing.T) {
			s := newSource(t, fakeSpec(t, "hoard", "hoard", "FAKE_HOARD="+tt.mode), nil)
			l, err := s.Tools(t.Context())
			var e *Error
			if !errors.Is(err, ErrTooLarge) || !errors.As(err, &e) || err.Error() != tt.want {
				t.Fatalf("Tools = %v, %v; want %s (ErrTooLarge)", l, err, tt.want)
			}
			if e.Fix != tt.fix {
				t.Errorf("fix %q, want %q", e.Fix, tt.fix)
			}
		})
	}
}
