package tool

import (
	"reflect"
	"strings"
)

// ParameterKeywords returns the keywords of a [Parameter] as the wire and
// TOML spell them ("type", "summary", …, "maxItems"). They come in field
// order. It is the one description of them. The TOML decoder takes its
// list of keys from it. Other places handle the keywords one by one. They
// are the encoder here, the merge's provenance, the SDK's tags and
// argument checks. A test of each such place fails when it misses one.
func ParameterKeywords() []string {
	t := reflect.TypeFor[Parameter]()
	out := make([]string, 0, t.NumField())
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		out = append(out, name)
	}
	return out
}
