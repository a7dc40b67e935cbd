package wirejson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"testing"
)

// checkValue fails unless AppendValue writes v as Marshal does, the error
// included, after the bytes already in the buffer.
func checkValue(t *testing.T, v any) {
	t.Helper()
	want, wantErr := Marshal(v)
	got, err := AppendValue([]byte("x"), v)
	if fmt.Sprint(err) != fmt.Sprint(wantErr) {
		t.Fatalf("AppendValue(%#v) error = %v, Marshal: %v", v, err, wantErr)
	}
	if err == nil && !bytes.Equal(got, append([]byte("x"), want...)) {
		t.Fatalf("AppendValue(%#v) = %s, Marshal: x%s", v, got, want)
	}
}

func TestAppendValue(t *testing.T) {
	type point struct {
		X int `json:"x"`
	}
	for name, v := range map[string]any{
		"nil":           nil,
		"bools":         []any{true, false},
		"string":        "a<b>&c \"q\" \\ \n\t\x00 \xff \u2028 é 𝄞",
		"numbers":       []any{json.Number(""), json.Number("-0.5e+3"), json.Number("12345678901234567890123"), 0.0, -0.0, 1e20, 1e21, 1e-7, 123456789.125, 3, int64(math.MaxInt64)},
		"strings":       []string{"x", "<&>"},
		"nil strings":   []string(nil),
		"nil slice":     []any(nil),
		"nil map":       map[string]any(nil),
		"nested":        map[string]any{"b": []any{map[string]any{}, []string{}}, "a": map[string]any{"z": nil, "y": 1.5}},
		"go values":     map[string]any{"i8": int8(-4), "u": uint64(1 << 63), "f32": float32(0.1), "struct": point{1}, "ptr": &point{2}, "raw": json.RawMessage(`[1, 2]`)},
		"bad number":    json.Number("01"),
		"NaN":           math.NaN(),
		"infinity":      map[string]any{"x": math.Inf(-1)},
		"unsupported":   []any{make(chan int)},
		"nested number": []any{json.Number("1.")},
	} {
		t.Run(name, func(t *testing.T) { checkValue(t, v) })
	}
}

// FuzzAppendValue: whatever JSON a tool or a host sends, decoded with or
// without UseNumber, AppendValue writes it as Marshal does. So do
// AppendFloat with any float64 and AppendValue with any json.Number.
func FuzzAppendValue(f *testing.F) {
	for _, s := range []string{`null`, `{"b":[1,2.5e-9,{"c":null}],"a":"<&>\u2028"}`, `[true,false,-0,1e400]`, `"\ud800"`, `12345678901234567890123`, `{}`, `[]`} {
		f.Add([]byte(s), 1.5)
	}
	f.Add([]byte(`01`), math.Inf(1))
	f.Fuzz(func(t *testing.T, data []byte, x float64) {
		var plain any
		if json.Unmarshal(data, &plain) == nil {
			checkValue(t, plain)
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		var numbers any
		if dec.Decode(&numbers) == nil {
			checkValue(t, numbers)
		}
		checkValue(t, json.Number(data))
		checkValue(t, x)
	})
}
