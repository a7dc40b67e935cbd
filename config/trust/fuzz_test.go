package trust

import (
	"encoding/json"
	"maps"
	"testing"
)

// FuzzParseRecord: a record file's contents, whatever they are, decode to
// a well-formed record or are refused; never a panic. A record that
// decodes survives a round trip.
func FuzzParseRecord(f *testing.F) {
	f.Add([]byte(`{"root":"/src/app","files":{"tools.toml":"` + Sum(nil) + `"},"trusted_at":"2026-11-25T13:00:00Z"}`))
	f.Add([]byte(`{"root":"/src/app","files":{}}`))
	f.Add([]byte(`{"root":"relative","files":{}}`))
	f.Add([]byte(`{"root":"/x","files":{"../a.toml":"00"}}`))
	f.Add([]byte(`{"root":"/x","files":null}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		rec, ok := parseRecord(data)
		if !ok {
			if rec != nil {
				t.Fatal("refused with a record")
			}
			return
		}
		out, err := json.Marshal(rec)
		if err != nil {
			t.Fatal(err)
		}
		again, ok := parseRecord(out)
		if !ok || again.Root != rec.Root || !maps.Equal(again.Files, rec.Files) || !again.Trusted.Equal(rec.Trusted) {
			t.Fatalf("round trip of %s: %+v, %v", out, again, ok)
		}
	})
}
