package sdk_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/sdk"
	"github.com/toolhost/toolhost/sdk/sdktest"
	"github.com/toolhost/toolhost/tool"
)

type bigObj struct {
	I64 int64 `json:"i64"`
}

type bigItem struct {
	U64 uint64 `json:"u64"`
	I64 int64  `json:"i64,omitempty"`
}

// bigIn has a field of each number kind whose exactness the tests check.
type bigIn struct {
	I64   int64     `json:"i64,omitempty"`
	U64   uint64    `json:"u64,omitempty"`
	I8    int8      `json:"i8,omitempty"`
	N     int       `json:"n,omitempty"`
	F64   float64   `json:"f64,omitempty"`
	Any   any       `json:"any,omitempty"`
	Obj   *bigObj   `json:"obj,omitempty"`
	Items []bigItem `json:"items,omitempty"`
	Max   int64     `json:"max,omitempty" jsonschema:"maximum=9007199254740992"`
	Ratio float64   `json:"ratio,omitempty" jsonschema:"minimum=0.1"`
	Level int       `json:"level,omitempty" jsonschema:"enum=1,enum=2"`
}

// bigTool answers with its decoded input re-encoded, so a test sees the
// digits each field received.
var bigTool = sdk.New("big", "Echoes its input.", func(ctx context.Context, in bigIn) (string, error) {
	b, err := json.Marshal(in)
	return string(b), err
}, nil)

// runRaw serves a run request whose arguments are the JSON text args, as a
// host writes it on stdin, and returns the outcome.
func runRaw(t *testing.T, action tool.Action, tl *sdk.Tool, args string) tool.Outcome {
	t.Helper()
	req := `{"protocol":"1","context":{"action":"` + string(action) + `","root":"/","workspace_id":"w","conversation_id":"c","access":null},` +
		`"tool":{"name":"` + tl.Name() + `","arguments":` + args + `,"answers":{},"options":{}}}`
	var stdout, stderr bytes.Buffer
	sdk.Run(t.Context(), strings.NewReader(req), &stdout, &stderr, tl)
	o, err := tool.DecodeOutcome(stdout.Bytes())
	if err != nil {
		t.Fatalf("%v\nstdout: %s", err, stdout.Bytes())
	}
	return o
}

// TestNumbersExact holds the sdk to the host's promise that numbers keep
// their digits: each field gets the number as written on stdin, or the
// call is refused with a message naming the field and showing the number
// as written.
func TestNumbersExact(t *testing.T) {
	tests := []struct {
		name string
		args string
		want string // success content, or "error: " and the message after the tool's prefix
	}{
		{"int64 max", `{"i64":9223372036854775807}`, `{"i64":9223372036854775807}`},
		{"int64 min", `{"i64":-9223372036854775808}`, `{"i64":-9223372036854775808}`},
		{"2^53+1", `{"i64":9007199254740993}`, `{"i64":9007199254740993}`},
		{"uint64 max", `{"u64":18446744073709551615}`, `{"u64":18446744073709551615}`},
		{"int64 max+1", `{"i64":9223372036854775808}`, `error: i64: want an integer that fits int64, got 9223372036854775808`},
		{"30 digits into int64", `{"i64":123456789012345678901234567890}`, `error: i64: want an integer that fits int64, got 123456789012345678901234567890`},
		{"negative into uint64", `{"u64":-1}`, `error: u64: want an integer that fits uint64, got -1`},
		{"int8 overflow", `{"i8":128}`, `error: i8: want an integer that fits int8, got 128`},
		// A float field asks for the nearest float64: a long integer is
		// rounded, as every JSON parser rounds it; only a number beyond the
		// type's range is refused.
		{"30 digits into float64", `{"f64":123456789012345678901234567890}`, `{"f64":1.2345678901234568e+29}`},
		{"beyond float64", `{"f64":1e400}`, `error: f64: want a number that fits float64, got 1e400`},
		{"1e3 into int", `{"n":1e3}`, `{"n":1000}`},
		{"1.0 into int", `{"n":1.0}`, `{"n":1}`},
		{"1.5 into int", `{"n":1.5}`, `error: n: want integer, got number 1.5`},
		{"1e400 into int", `{"n":1e400}`, `error: n: want an integer that fits int, got 1e400`},
		{"1e-400 into int", `{"n":1e-400}`, `error: n: want integer, got number 1e-400`},
		{"any keeps the digits", `{"any":12345678901234567890123456789.05e-1}`, `{"any":12345678901234567890123456789.05e-1}`},
		{"nested object", `{"obj":{"i64":9007199254740993}}`, `{"obj":{"i64":9007199254740993}}`},
		{"nested object overflow", `{"obj":{"i64":1e19}}`, `error: obj.i64: want an integer that fits int64, got 1e19`},
		{"array of structs", `{"items":[{"u64":18446744073709551615},{"u64":9007199254740993,"i64":-9223372036854775808}]}`,
			`{"items":[{"u64":18446744073709551615},{"u64":9007199254740993,"i64":-9223372036854775808}]}`},
		{"array of structs overflow", `{"items":[{"u64":1},{"u64":18446744073709551616}]}`,
			`error: items[1].u64: want an integer that fits uint64, got 18446744073709551616`},
		{"maximum exact", `{"max":9007199254740993}`, `error: max: want at most 9007199254740992, got 9007199254740993`},
		{"maximum equal", `{"max":9007199254740992}`, `{"max":9007199254740992}`},
		{"minimum decimal", `{"ratio":0.09999999999999999999}`, `error: ratio: want at least 0.1, got 0.09999999999999999999`},
		{"minimum equal", `{"ratio":0.1}`, `{"ratio":0.1}`},
		{"enum by value", `{"level":2.0}`, `{"level":2}`},
		{"enum miss", `{"level":3}`, `error: level: want one of 1, 2, got 3`},
		{"explicit null means absent", `{"n":null,"obj":null}`, `{}`},
		{"explicit null in an array item", `{"items":[{"u64":1,"i64":null}]}`, `{"items":[{"u64":1}]}`},
		{"every problem named", `{"i64":1e19,"items":[{"u64":-1}]}`,
			`error: i64: want an integer that fits int64, got 1e19; items[0].u64: want an integer that fits uint64, got -1`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := runRaw(t, tool.ActionRun, bigTool, tt.args)
			got := o.Content
			if o.IsError() {
				got = "error: " + strings.TrimPrefix(o.Message, `invalid arguments for tool "big": `)
			}
			if got != tt.want {
				t.Errorf("outcome mismatch\nwant %s\ngot  %s", tt.want, got)
			}
		})
	}
}

// TestNumbersFormat checks that the default formatter shows numbers as the
// host sent them.
func TestNumbersFormat(t *testing.T) {
	o := runRaw(t, tool.ActionFormatArguments, bigTool, `{"i64":9007199254740993,"any":1.50e400}`)
	if want := "i64: 9007199254740993\nany: 1.50e400"; o.Content != want {
		t.Errorf("format mismatch\nwant %q\ngot  %q (%s)", want, o.Content, o)
	}
}

// TestNumbersSdktest checks that sdktest passes Go numbers and json.Number
// through exactly.
func TestNumbersSdktest(t *testing.T) {
	o := sdktest.Run(t, bigTool, map[string]any{
		"i64": int64(-9223372036854775808),
		"u64": uint64(18446744073709551615),
		"any": json.Number("9007199254740993"),
	}, nil)
	if want := `{"i64":-9223372036854775808,"u64":18446744073709551615,"any":9007199254740993}`; o.Content != want {
		t.Errorf("outcome mismatch\nwant %s\ngot  %s", want, o)
	}
}
