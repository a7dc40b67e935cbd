package trust

import (
	"encoding/json"
	"maps"
	"testing"
)

// FuzzParseRecord: a record file's contents, whatever they are, decode to
// a well-formed record (its targets clean absolute paths) or are refused,
// never a panic. A record that decodes survives a round trip.
func FuzzParseRecord(f *testing.F) {
	f.Add([]byte(`{"root":"/src/app","files":{"tools.toml":"` + Sum(nil) + `"},"trusted_at":"2026-11-25T13:00:00Z"}`))
	f.Add([]byte(`{"root":"/src/app","files":{}}`))
	f.Add([]byte(`{"root":"relative","files":{}}`))
	f.Add([]byte(`{"root":"/x","files":{"../a.toml":"00"}}`))
	f.Add([]byte(`{"root":"/x","files":null}`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`{"root":"/x","files":{},"targets":{"/x/vendor/fork":"/home/u/fork"}}`))
	f.Add([]byte(`{"root":"/x","files":{},"targets":{"/x/a":"../b"}}`))
	f.Add([]byte(`{"root":"/x","files":{},"targets":null}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		rec, ok := parseRecord(data)
		if !ok {
			if rec != nil {
				t.Fatal("refused with a record")
			}
			return
		}
		for named, target := range rec.Targets {
			if !cleanAbs(named) || !cleanAbs(target) {
				t.Fatalf("accepted target %q → %q", named, target)
			}
		}
		out, err := json.Marshal(rec)
		if err != nil {
			t.Fatal(err)
		}
		again, ok := parseRecord(out)
		if !ok || again.Root != rec.Root || !maps.Equal(again.Files, rec.Files) || !maps.Equal(again.Targets, rec.Targets) || !again.Trusted.Equal(rec.Trusted) {
			t.Fatalf("round trip of %s: %+v, %v", out, again, ok)
		}
	})
}
