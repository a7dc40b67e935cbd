package toolname

import (
	"strings"
	"testing"
)

func TestValid(t *testing.T) {
	tests := []struct {
		name string
		want bool
	}{
		{"greet", true},
		{"read_file", true},
		{"fs-read2", true},
		{strings.Repeat("a", 64), true},
		{"", false},
		{strings.Repeat("a", 65), false},
		{"fs.read", false},
		{"a b", false},
		{"héllo", false},
		{"greet\n", false},
	}
	for _, tt := range tests {
		if got := Valid(tt.name); got != tt.want {
			t.Errorf("Valid(%q) = %v, want %v", tt.name, got, tt.want)
		}
	}
}
