package tool

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// FuzzDecodePlain holds decodePlain to its promise: a request it accepts
// decodes to the same value with encoding/json (decodeFields).
func FuzzDecodePlain(f *testing.F) {
	seed(f, "request")
	seed(f, "request_v2")
	for _, s := range []string{
		`{"protocol":"1","context":{"action":"run","access":[1, {"a" : null}]},"tool":{"name":"x","arguments":{"a":-0.5e+3,"b":[],"c":{},"d":[true,false,null,"s"]}}}`,
		`{"protocol":"1","protocol":"2"}`,
		`{"tool":{"name":"x","arguments":{"a":1,"a":{"b":2}}},"x":{"y":[1,2]}}`,
		`{"tool":null,"context":null,"id":null}`,
		`{"tool":{"arguments":[1]}}`,
		`{"a":01}`, `{"a":1.}`, `{"a":-}`, `{"a":1e}`, `{"a":tru}`, `{"a":nul}`, `{}x`, `{} `, `null`,
		`{"a":"\u0041"}`, "{\"a\":\"\xff\"}", "{\"a\":\"\t\"}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		plain, ok := decodePlain(data)
		if !ok {
			return
		}
		want, err := decodeFields(data)
		if err != nil {
			t.Fatalf("decodePlain accepted what encoding/json refuses (%v): %q", err, data)
		}
		if !reflect.DeepEqual(plain, want) {
			t.Fatalf("decodePlain differs from encoding/json for %q\nplain: %#v\njson:  %#v", data, plain, want)
		}
	})
}

// TestDecodePlainGolden checks that every golden request is plain, so the
// fast path is the one the vectors exercise, except those that must not be.
func TestDecodePlainGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "request*", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no requests: %v", err)
	}
	plain := 0
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := decodePlain(data); ok {
			plain++
		}
	}
	if plain == 0 {
		t.Errorf("no golden request is plain: decodePlain is never exercised by them")
	}
}

// sandboxedAccess is context.access as the host sends it for an entry
// with sandbox = true (the default profile).
const sandboxedAccess = `{"fs":[{"lexical_path":"","external":false,"approved_target":null,"read":true,"write":true,"create":null,"update":null,"delete":null,"execute":null},{"lexical_path":".git","external":false,"approved_target":null,"read":true,"write":false,"create":null,"update":null,"delete":null,"execute":null},{"lexical_path":".config/toolhost","external":false,"approved_target":null,"read":true,"write":false,"create":null,"update":null,"delete":null,"execute":null}],"net":[],"env":[]}`

// BenchmarkDecodeRequest: "sandboxed" is what a long-lived sandboxed
// tool decodes per call; it must cost about what the same call without
// an access policy does (docs/performance.md, the sandbox).
func BenchmarkDecodeRequest(b *testing.B) {
	const req = `{"id":"7","protocol":"2","context":{"action":"run","root":"/work/ws","workspace_id":"ws-1","conversation_id":"","access":%s},"tool":{"name":"alpha","arguments":{"path":"a.txt","n":3,"tags":["x","y"]},"answers":{},"options":{}}}`
	for _, tc := range []struct {
		name   string
		decode func([]byte) (*Request, error)
		access string
	}{{"plain", decodeRequest, "null"}, {"fields", decodeFields, "null"}, {"plain-sandboxed", decodeRequest, sandboxedAccess}} {
		data := []byte(fmt.Sprintf(req, tc.access))
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := tc.decode(data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// FuzzPlainTagged holds plainTagged to its promise: a line it accepts
// decodes to the same fields with encoding/json (decodeTaggedJSON).
func FuzzPlainTagged(f *testing.F) {
	seed(f, "tagged")
	for _, s := range []string{
		`{"id":"7","outcome":{"type":"success","content":"ok"}}`, ` {"outcome" : null , "id" : "1", "event":{"type":"log"}} `,
		`{"id":"1","id":"2"}`, `{"ID":"1"}`, `{"id":null}`, `{"id":1}`, `{"id":"\u0041"}`, `{"id":"1"} x`, `{"id":"1","x":1}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		plain, ok := plainTagged(data)
		if !ok {
			return
		}
		want, err := decodeTaggedJSON(data)
		if err != nil {
			t.Fatalf("plainTagged accepted what encoding/json refuses (%v): %q", err, data)
		}
		if !reflect.DeepEqual(plain, want) {
			t.Fatalf("plainTagged differs from encoding/json for %q\nplain: %#v\njson:  %#v", data, plain, want)
		}
	})
}

// FuzzPlainOutcome holds plainOutcome to its promise: an outcome it
// accepts decodes to the same fields with encoding/json (decodeOutcomeJSON).
func FuzzPlainOutcome(f *testing.F) {
	seed(f, "outcome")
	for _, s := range []string{
		`{"type":"success","content":"ok"}`, `{"type":"error","message":"m","trace":["a","b"],"transient":true}`,
		`{"type":"error","trace":[]}`, `{"type":"error","trace":[null]}`, `{"type":"error","trace":null}`, `{"Type":"x"}`,
		`{"type":"success","type":"error"}`, `{"transient":1}`, `{"content":null}`, `{"type":"success","structured":{}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		plain, ok := plainOutcome(data)
		if !ok {
			return
		}
		want, err := decodeOutcomeJSON(data)
		if err != nil {
			t.Fatalf("plainOutcome accepted what encoding/json refuses (%v): %q", err, data)
		}
		if !reflect.DeepEqual(plain, want) {
			t.Fatalf("plainOutcome differs from encoding/json for %q\nplain: %#v\njson:  %#v", data, plain, want)
		}
	})
}
