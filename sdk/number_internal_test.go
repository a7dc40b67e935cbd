package sdk

import "testing"

func TestDecimalCmp(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"9007199254740993", "9007199254740992", 1},
		{"1e3", "1000", 0},
		{"1.0", "1", 0},
		{"-0", "0", 0},
		{"0.1", "0.10", 0},
		{"0.09999999999999999999", "0.1", -1},
		{"-5", "-4", -1},
		{"-5", "3", -1},
		{"123456789012345678901234567890", "1.2345678901234568e29", -1},
		{"1e999999999999999999999", "1e400", 1},
		{"1e-999999999999999999999", "0", 1},
	}
	for _, tt := range tests {
		a, okA := parseDecimal(tt.a)
		b, okB := parseDecimal(tt.b)
		if !okA || !okB {
			t.Fatalf("parseDecimal(%q), (%q) = %v, %v", tt.a, tt.b, okA, okB)
		}
		if got := a.cmp(b); got != tt.want {
			t.Errorf("cmp(%s, %s) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
		if got := b.cmp(a); got != -tt.want {
			t.Errorf("cmp(%s, %s) = %d, want %d", tt.b, tt.a, got, -tt.want)
		}
	}
	for _, bad := range []string{"", "-", "01", "1.", ".5", "1e", "1e+", "+1", "0x10", "1 ", "NaN", "Infinity"} {
		if _, ok := parseDecimal(bad); ok {
			t.Errorf("parseDecimal(%q) accepted", bad)
		}
	}
	for in, want := range map[string]string{"1e3": "1000", "1.50e1": "15", "-0": "0", "-12e0": "-12"} {
		d, _ := parseDecimal(in)
		if got, ok := d.plain(); !ok || got != want {
			t.Errorf("plain(%s) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, in := range []string{"1.5", "1e401", "1e999999999999"} {
		d, _ := parseDecimal(in)
		if got, ok := d.plain(); ok {
			t.Errorf("plain(%s) = %q, want none", in, got)
		}
	}
}
