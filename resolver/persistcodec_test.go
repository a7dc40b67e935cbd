package resolver

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"reflect"
	"testing"
	"time"
)

// testResolution is a header using every field of the encoding.
func testResolution() (*storedResolution, []byte) {
	body := []byte(`{"tools":[]}{"parameters":{}}`)
	return &storedResolution{
		Version: resolutionVersion,
		Key:     "key",
		Files:   "files",
		Plan: &storedPlan{
			Groups: []storedGroup{{Command: []string{"bin/x", "a b"}, Shell: true, Dir: "sub", Env: map[string]string{"B": "2", "A": "1"},
				ClearEnv: true, Text: "bin/x 'a b'", Timeout: 30 * time.Second, Asked: true}},
			Entries:    []storedEntry{{Key: "tools.x", Group: 0, AllowOption: map[string]bool{"flag": true}, Options: []byte(`{"n":1.50}`)}},
			Categories: []storedCategory{{ID: "fs", Name: "Files", Description: "d", Icon: "📁"}},
		},
		Keys:     []string{"k1"},
		Identity: Identity{ServerID: "id", ToolsCount: 1, ProtocolVersion: "1.0"},
		Problems: []byte(`[{"msg":"m"}]`),
		List:     span{0, 12},
		Tools: []storedTool{{Name: "x", Summary: "s", Enabled: true, Entry: "tools.x", Bin: "x", Protocol: true, V2: true, LongLived: true,
			Timeout: time.Minute, Detail: span{12, 17}}},
	}, body
}

// TestResolutionRoundTrip: what encodeResolution writes decodes to the
// same header and body.
func TestResolutionRoundTrip(t *testing.T) {
	want, body := testResolution()
	got, gotBody, err := decodeResolution(encodeResolution(want, body))
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
	data := append([]byte(resolutionMagic), 0, 0, 0, 0, 0, 0, 0, 0)
	binary.LittleEndian.PutUint32(data[len(resolutionMagic):], crc32.ChecksumIEEE(payload))
	binary.LittleEndian.PutUint32(data[len(resolutionMagic)+4:], uint32(len(payload)))
	return append(data, payload...)
}

// FuzzDecodeResolution checks that any file decodes or fails cleanly (no
// panic, no allocation beyond the input's size), that what decodes has its
// spans in the body and survives a round trip, and that decodeOne (Only)
// agrees with it. Each input is tried as a whole file and as a header.
func FuzzDecodeResolution(f *testing.F) {
	h, body := testResolution()
	good := encodeResolution(h, body)
	header := good[prefixLen : len(good)-len(body)]
	for _, seed := range [][]byte{good, good[:len(good)/2], header, header[:len(header)/2],
		encodeResolution(&storedResolution{Version: resolutionVersion}, nil), []byte(resolutionMagic), {}} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkDecode(t, data)
		checkDecode(t, asHeader(data))
	})
}

func checkDecode(t *testing.T, data []byte) {
	t.Helper()
	// decodeOne checks less (one detail), so it may accept what
	// decodeResolution refuses; it must not panic, and what it returns
	// must be that tool's.
	if oh, i, detail, err := decodeOne(bytes.NewReader(data), int64(len(data)), "x"); err == nil && i >= 0 {
		if oh.Tools[i].Name != "x" || len(detail) != oh.Tools[i].Detail[1] {
			t.Fatalf("decodeOne(x) = tool %q, %d bytes of detail, span %v", oh.Tools[i].Name, len(detail), oh.Tools[i].Detail)
		}
	}
	h, body, err := decodeResolution(data)
	if err != nil {
		if h != nil || body != nil {
			t.Fatal("a header or body with an error")
		}
		return
	}
	if h.Version != resolutionVersion {
		t.Fatalf("accepted version %d", h.Version)
	}
	if _, ok := h.List.of(body); !ok {
		t.Fatalf("list span %v outside a body of %d bytes", h.List, len(body))
	}
	for _, st := range h.Tools {
		if _, ok := st.Detail.of(body); !ok {
			t.Fatalf("detail span %v outside a body of %d bytes", st.Detail, len(body))
		}
	}
	for _, st := range h.Tools {
		oh, i, detail, err := decodeOne(bytes.NewReader(data), int64(len(data)), st.Name)
		want, _ := st.Detail.of(body)
		if err != nil || i < 0 || oh.Tools[i].Name != st.Name || !bytes.Equal(detail, want) {
			t.Fatalf("decodeOne(%q) = %d, %q, %v; want the detail decodeResolution read, %q", st.Name, i, detail, err, want)
		}
	}
	again, againBody, err := decodeResolution(encodeResolution(h, body))
	if err != nil {
		t.Fatalf("round trip: %v", err)
	}
	if !reflect.DeepEqual(h, again) || !bytes.Equal(body, againBody) {
		t.Fatalf("round trip mismatch:\nfirst  %+v\nsecond %+v", h, again)
	}
}
