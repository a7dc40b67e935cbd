package persist

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"reflect"
	"testing"
	"time"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/internal/invoke"
	"github.com/toolhost/toolhost/tool"
)

// testResolution is a header using every field of the encoding.
func testResolution() (*Resolution, []byte) {
	body := []byte(`{"tools":[]}{"parameters":{}}`)
	return &Resolution{
		Version: Version,
		Key:     "key",
		Files:   "files",
		Plan: &Plan{
			Groups: []Group{{Spec: invoke.Spec{Command: []string{"bin/x", "a b"}, Shell: true, Dir: "sub", Env: map[string]string{"B": "2", "A": "1"},
				ClearEnv: true}, Text: "bin/x 'a b'", Timeout: 30 * time.Second, Asked: true}},
			Entries: []Entry{{Key: "tools.x", Group: 0, Config: &config.Entry{AllowOption: map[string]bool{"flag": true},
				Options: map[string]any{"n": json.Number("1.50")}, Sandbox: "require", Access: &tool.Access{FS: []tool.AccessFS{{Path: "."}}}}}},
			Categories: []catalog.Category{{ID: "fs", Name: "Files", Description: "d", Icon: "📁"}},
		},
		Keys:     []string{"k1"},
		Identity: catalog.Identity{ServerID: "id", ToolsCount: 1, ProtocolVersion: "1.0"},
		Problems: []byte(`[{"msg":"m"}]`),
		List:     Span{0, 12},
		Tools: []Tool{{Name: "x", Summary: "s", Enabled: true, Entry: "tools.x", Bin: "x", Protocol: true, V2: true, LongLived: true,
			Timeout: time.Minute, Detail: Span{12, 17}}},
	}, body
}

// TestResolutionRoundTrip: what Encode writes decodes to the
// same header and body.
func TestResolutionRoundTrip(t *testing.T) {
	want, body := testResolution()
	got, gotBody, err := Decode(mustEncode(t, want, body))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("header mismatch:\nwant %+v\n got %+v", want, got)
	}
	if !bytes.Equal(gotBody, body) {
		t.Errorf("body %q, want %q", gotBody, body)
	}
}

// asHeader frames payload as the header of a file (with its CRC and
// length) with an empty body, so that the fuzzer reaches the header's
// decoding.
func asHeader(payload []byte) []byte {
	data := append([]byte(Magic), 0, 0, 0, 0, 0, 0, 0, 0)
	binary.LittleEndian.PutUint32(data[len(Magic):], crc32.ChecksumIEEE(payload))
	binary.LittleEndian.PutUint32(data[len(Magic)+4:], uint32(len(payload)))
	return append(data, payload...)
}

// FuzzDecodeResolution checks that any file decodes or fails cleanly (no
// panic, no allocation beyond the input's size), that what decodes has its
// spans in the body and survives a round trip, and that DecodeOne (Only),
// DecodeLazy and its Check agree with it. Each input is tried as a whole file and as
// a header.
func FuzzDecodeResolution(f *testing.F) {
	h, body := testResolution()
	good, _ := Encode(h, body)
	header := good[prefixLen : len(good)-len(body)]
	for _, seed := range [][]byte{good, good[:len(good)/2], header, header[:len(header)/2],
		mustEncode(f, &Resolution{Version: Version}, nil), []byte(Magic), {}} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkDecode(t, data)
		checkDecode(t, asHeader(data))
	})
}

func checkDecode(t *testing.T, data []byte) {
	t.Helper()
	// DecodeOne checks less (one detail), so it may accept what
	// Decode refuses; it must not panic, and what it returns
	// must be that tool's.
	if oh, i, detail, err := DecodeOne(bytes.NewReader(data), int64(len(data)), "x"); err == nil && i >= 0 {
		if oh.Tools[i].Name != "x" || len(detail) != oh.Tools[i].Detail[1] {
			t.Fatalf("DecodeOne(x) = tool %q, %d bytes of detail, span %v", oh.Tools[i].Name, len(detail), oh.Tools[i].Detail)
		}
	}
	// DecodeLazy checks less too: no detail until asked. A detail it
	// reads must be the span's bytes.
	lazy, lerr := DecodeLazy(bytes.NewReader(data), int64(len(data)))
	if lerr == nil {
		for i, st := range lazy.Header.Tools {
			if detail, err := lazy.Detail(i); err == nil && len(detail) != st.Detail[1] {
				t.Fatalf("Lazy.Detail(%d) = %d bytes, span %v", i, len(detail), st.Detail)
			}
		}
	}
	h, body, err := Decode(data)
	if lerr == nil {
		// Check reads every detail: DecodeLazy and Check accept what
		// Decode accepts.
		if cerr := lazy.Check(); (cerr == nil) != (err == nil) {
			t.Fatalf("Lazy.Check = %v, Decode = %v", cerr, err)
		}
	}
	if err != nil {
		if h != nil || body != nil {
			t.Fatal("a header or body with an error")
		}
		return
	}
	if lerr != nil {
		t.Fatalf("DecodeLazy refused what Decode read: %v", lerr)
	}
	if list, _ := h.List.Of(body); !reflect.DeepEqual(lazy.Header, h) || !bytes.Equal(lazy.List, list) {
		t.Fatalf("DecodeLazy = %+v, list %q; Decode = %+v, list %q", lazy.Header, lazy.List, h, list)
	}
	for i, st := range h.Tools {
		want, _ := st.Detail.Of(body)
		if got, err := lazy.Detail(i); err != nil || !bytes.Equal(got, want) {
			t.Fatalf("Lazy.Detail(%d) = %q, %v; want %q", i, got, err, want)
		}
	}
	if h.Version != Version {
		t.Fatalf("accepted version %d", h.Version)
	}
	if _, ok := h.List.Of(body); !ok {
		t.Fatalf("list Span %v outside a body of %d bytes", h.List, len(body))
	}
	for _, st := range h.Tools {
		if _, ok := st.Detail.Of(body); !ok {
			t.Fatalf("detail Span %v outside a body of %d bytes", st.Detail, len(body))
		}
	}
	for _, st := range h.Tools {
		oh, i, detail, err := DecodeOne(bytes.NewReader(data), int64(len(data)), st.Name)
		want, _ := st.Detail.Of(body)
		if err != nil || i < 0 || oh.Tools[i].Name != st.Name || !bytes.Equal(detail, want) {
			t.Fatalf("DecodeOne(%q) = %d, %q, %v; want the detail Decode read, %q", st.Name, i, detail, err, want)
		}
	}
	data, err = Encode(h, body)
	if err != nil {
		t.Fatalf("encode again: %v", err)
	}
	again, againBody, err := Decode(data)
	if err != nil {
		t.Fatalf("round trip: %v", err)
	}
	if !reflect.DeepEqual(h, again) || !bytes.Equal(body, againBody) {
		t.Fatalf("round trip mismatch:\nfirst  %+v\nsecond %+v", h, again)
	}
}

func mustEncode(t testing.TB, h *Resolution, body []byte) []byte {
	t.Helper()
	data, err := Encode(h, body)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestDecodeHeaderAllocs: the strings of a header share one allocation,
// so decoding a header of 100 tools allocates no more than one of 1.
func TestDecodeHeaderAllocs(t *testing.T) {
	allocs := func(n int) float64 {
		h := &Resolution{Version: Version, Key: "key"}
		var body []byte
		for i := range n {
			detail := []byte(`{"parameters":{}}`)
			h.Tools = append(h.Tools, Tool{Name: fmt.Sprintf("tool_%04d", i), Summary: "Reads part of a file.", Entry: "toolsets.many",
				Bin: fmt.Sprintf("tool_%04d", i), Enabled: true, Detail: Span{len(body), len(detail)}})
			body = append(body, detail...)
		}
		data := mustEncode(t, h, body)
		header := data[prefixLen : len(data)-len(body)]
		return testing.AllocsPerRun(20, func() {
			if _, _, err := decodeHeader(header); err != nil {
				t.Fatal(err)
			}
		})
	}
	if one, hundred := allocs(1), allocs(100); hundred != one {
		t.Errorf("decoding a header allocates %v times with 100 tools, %v with 1; want the same", hundred, one)
	}
}

// TestLazyCheck: Check accepts the details as written, in the order
// written or not, and refuses one changed byte of any.
func TestLazyCheck(t *testing.T) {
	file := func(reverse bool) ([]byte, int) {
		h := &Resolution{Version: Version, List: Span{0, 12}}
		body := []byte(`{"tools":[]}`)
		details := []string{`{"a":1}`, `{"b":22}`, `{"c":333}`}
		at := make([]int, len(details))
		for _, k := range []int{0, 1, 2} {
			if reverse {
				k = 2 - k
			}
			at[k] = len(body)
			body = append(body, details[k]...)
		}
		for k, d := range details {
			h.Tools = append(h.Tools, Tool{Name: string(rune('a' + k)), Detail: Span{at[k], len(d)}})
		}
		data := mustEncode(t, h, body)
		return data, len(data) - len(body)
	}
	for _, tt := range []struct {
		name    string
		reverse bool
		flip    int // a byte of the body to change, counted from the first detail; -1: none
		want    error
	}{
		{"in order", false, -1, nil},
		{"in reverse order", true, -1, nil},
		{"first detail changed", false, 0, ErrBad},
		{"last detail changed", false, 7 + 8 + 8, ErrBad},
		{"a detail read out of order changed", true, 0, ErrBad},
	} {
		t.Run(tt.name, func(t *testing.T) {
			data, body := file(tt.reverse)
			if tt.flip >= 0 {
				data[body+12+tt.flip] ^= 0x20
			}
			lz, err := DecodeLazy(bytes.NewReader(data), int64(len(data)))
			if err != nil {
				t.Fatal(err)
			}
			if err := lz.Check(); err != tt.want {
				t.Errorf("Check = %v, want %v", err, tt.want)
			}
		})
	}
}

// TestLazyCheckAllocs: Check reads the details through one buffer, so it
// allocates no more for 100 tools than for 1.
func TestLazyCheckAllocs(t *testing.T) {
	allocs := func(n int) float64 {
		h := &Resolution{Version: Version}
		var body []byte
		for i := range n {
			detail := bytes.Repeat([]byte("x"), 1500) // about a tool's detail
			h.Tools = append(h.Tools, Tool{Name: fmt.Sprintf("tool_%04d", i), Detail: Span{len(body), len(detail)}})
			body = append(body, detail...)
		}
		data := mustEncode(t, h, body)
		lz, err := DecodeLazy(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		return testing.AllocsPerRun(5, func() {
			if err := lz.Check(); err != nil {
				t.Fatal(err)
			}
		})
	}
	if one, hundred := allocs(1), allocs(100); hundred != one {
		t.Errorf("Check allocates %v times for 100 tools, %v for 1; want the same", hundred, one)
	}
}
