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

// withCRC frames payload (what follows the CRC) as a file with a valid
// CRC, so that the fuzzer reaches the header's decoding.
func withCRC(payload []byte) []byte {
	data := append([]byte(resolutionMagic), 0, 0, 0, 0)
	binary.LittleEndian.PutUint32(data[len(resolutionMagic):], crc32.ChecksumIEEE(payload))
	return append(data, payload...)
}

// FuzzDecodeResolution checks that any file decodes or fails cleanly (no
// panic, no allocation beyond the input's size), and that what decodes has
// its spans in the body and survives a round trip. Each input is tried as
// a whole file and as what follows a valid CRC.
func FuzzDecodeResolution(f *testing.F) {
	h, body := testResolution()
	good := encodeResolution(h, body)
	payload := good[len(resolutionMagic)+4:]
	for _, seed := range [][]byte{good, good[:len(good)/2], payload, payload[:len(payload)/2],
		encodeResolution(&storedResolution{Version: resolutionVersion}, nil), []byte(resolutionMagic), {}} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkDecode(t, data)
		checkDecode(t, withCRC(data))
	})
}

func checkDecode(t *testing.T, data []byte) {
	t.Helper()
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
	again, againBody, err := decodeResolution(encodeResolution(h, body))
	if err != nil {
		t.Fatalf("round trip: %v", err)
	}
	if !reflect.DeepEqual(h, again) || !bytes.Equal(body, againBody) {
		t.Fatalf("round trip mismatch:\nfirst  %+v\nsecond %+v", h, again)
	}
}
