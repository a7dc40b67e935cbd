//go:build jsonlib

package catalog

import (
	"encoding/json"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Built with the tag jsonlib (by `make bench` only), DecodeArguments
// decodes with github.com/go-json-experiment/json (v2) instead of package
// plainjson. Anything v2 refuses goes to encoding/json as before. See
// tool/jsonlib_on.go and docs/dependencies.md.

// libNumber decodes a JSON number into an any as json.Number, as
// encoding/json does with UseNumber.
var libNumber = jsonv2.WithUnmarshalers(jsonv2.UnmarshalFromFunc(func(dec *jsontext.Decoder, v *any) error {
	if dec.PeekKind() != '0' {
		return jsonv2.SkipFunc
	}
	val, err := dec.ReadValue()
	if err != nil {
		return err
	}
	*v = json.Number(val)
	return nil
}))

// libDecodeArguments is DecodeArguments's object path with the library.
func libDecodeArguments(data []byte) (map[string]any, error) {
	args := map[string]any{}
	if err := jsonv2.Unmarshal(data, &args, libNumber); err != nil {
		return nil, err
	}
	return args, nil
}

// fastArguments is DecodeArguments's one-pass path.
func fastArguments(data []byte) (map[string]any, bool) {
	args, err := libDecodeArguments(data)
	return args, err == nil
}
