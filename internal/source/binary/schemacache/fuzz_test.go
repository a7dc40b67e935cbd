package schemacache

import (
	"encoding/json"
	"testing"

	"github.com/toolhost/toolhost/tool"
)

// FuzzDecodeCacheFile checks that any cache file content decodes or fails
// cleanly, and that what decodes survives a round trip.
func FuzzDecodeCacheFile(f *testing.F) {
	good, _ := json.Marshal(File{Version: Version, Key: "abc", Command: []string{"bin/x"},
		Response: &tool.SchemaResponse{Tools: []tool.Definition{{Name: "x", Parameters: map[string]*tool.Parameter{"p": {Type: tool.Types{"string"}}}}}}})
	for _, seed := range []string{
		string(good),
		`{"version":1,"key":"k","response":{"tools":[]}}`,
		`{"version":2,"key":"k","response":{"tools":[]}}`,
		`{"version":1,"key":"","response":{"tools":[]}}`,
		`{"version":1,"key":"k","response":{"tools":[{"name":""}]}}`,
		`{"version":1,"key":"k","response":null}`,
		`{"version":1,"key":"k","response":{"tools":[{"name":`,
		`{"version":1,"key":"k","response":{"tools":[]}} trailing`,
		``, `null`, `[]`, `"x"`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cf, err := DecodeFile(data)
		if err != nil {
			if cf != nil {
				t.Fatal("non-nil file with an error")
			}
			return
		}
		if cf.Version != Version || cf.Key == "" || cf.Response == nil {
			t.Fatalf("accepted an invalid file: %+v", cf)
		}
		again, err := json.Marshal(cf)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := DecodeFile(again); err != nil {
			t.Fatalf("round trip: %v\n%s", err, again)
		}
	})
}
