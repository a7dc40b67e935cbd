//go:build jsonlib

package catalog

import (
	"reflect"
	"testing"

	"github.com/toolhost/toolhost/internal/plainjson"
)

// The arguments of a call decoded by DecodeArguments's hand-written path
// (package plainjson), by github.com/go-json-experiment/json (v2) and by
// encoding/json, in the same run; docs/dependencies.md has the numbers.

// handDecodeArguments is DecodeArguments in an ordinary build.
func handDecodeArguments(data []byte) (map[string]any, error) {
	if args, ok := plainjson.DecodeObject(data); ok {
		return args, nil
	}
	return decodeArgumentsJSON(data)
}

// jsonlibArguments are the arguments of the figures' calls (five's alpha,
// as the MCP call figures send them) and a larger, nested object.
var jsonlibArguments = map[string][]byte{
	"call":   []byte(`{"path":"a.txt","offset":0,"limit":2000,"mode":"text"}`),
	"nested": []byte(`{"path":"a.txt","n":3,"tags":["x","y"],"opts":{"deep":true,"list":[1,2.5,-3e2,{"k":null}]},"ids":[12345678901234567890,2,3]}`),
}

func TestJSONLibArgumentsSame(t *testing.T) {
	for name, data := range jsonlibArguments {
		hand, _ := handDecodeArguments(data)
		lib, err := libDecodeArguments(data)
		v1, _ := decodeArgumentsJSON(data)
		if err != nil || !reflect.DeepEqual(hand, lib) || !reflect.DeepEqual(hand, v1) {
			t.Errorf("%s: decoders differ (%v):\n%#v\n%#v\n%#v", name, err, hand, lib, v1)
		}
	}
}

// BenchmarkJSONLibArguments: one call's arguments, as every face decodes
// them (P3's `call --args`, MCP tools/call).
func BenchmarkJSONLibArguments(b *testing.B) {
	for _, name := range []string{"call", "nested"} {
		for _, v := range []struct {
			name   string
			decode func([]byte) (map[string]any, error)
		}{{"hand", handDecodeArguments}, {"v2", libDecodeArguments}, {"v1", decodeArgumentsJSON}} {
			b.Run(name+"/"+v.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := v.decode(jsonlibArguments[name]); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
