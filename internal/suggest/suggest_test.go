package suggest

import (
	"strings"
	"testing"
)

func TestDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"", "abc", 3},
		{"command", "command", 0},
		{"comand", "command", 1},
		{"commnad", "command", 2},
		{"kitten", "sitting", 3},
		{strings.Repeat("a", 65), "a", 99},
	}
	for _, tt := range tests {
		if got := Distance(tt.a, tt.b); got != tt.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
		if got := Distance(tt.b, tt.a); got != tt.want {
			t.Errorf("Distance(%q, %q) = %d, want %d (symmetric)", tt.b, tt.a, got, tt.want)
		}
	}
}

func TestNearest(t *testing.T) {
	keys := []string{"command", "description", "summary", "timeout"}
	tests := []struct {
		s       string
		maxDist int
		want    string
	}{
		{"comand", 2, "command"},
		{"sumary", 1, "summary"},
		{"timout", 0, ""},
		{"xyz", 2, ""},
		{"descrption", 3, "description"},
	}
	for _, tt := range tests {
		if got := Nearest(tt.s, keys, tt.maxDist); got != tt.want {
			t.Errorf("Nearest(%q, max %d) = %q, want %q", tt.s, tt.maxDist, got, tt.want)
		}
	}
	if got := Nearest("ab", []string{"aa", "bb"}, 1); got != "aa" {
		t.Errorf("tie: Nearest = %q, want the earlier candidate %q", got, "aa")
	}
}
