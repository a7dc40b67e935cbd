package wirejson

import (
	"encoding/json"
	"errors"
	"testing"
)

// TestProblem: decoding errors are worded from their type, without Go's
// type names nor the "json: " prefix of encoding/json.
func TestProblem(t *testing.T) {
	var m map[string]any
	var s struct {
		Limit int `json:"limit"`
	}
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"not an object", json.Unmarshal([]byte(`[1]`), &m), "not a JSON object (a JSON array)"},
		{"a field of the wrong type", json.Unmarshal([]byte(`{"limit":"x"}`), &s), "limit: wrong type (a JSON string)"},
		{"syntax", json.Unmarshal([]byte(`{"a"`), &m), "unexpected end of JSON input"},
		{"other", errors.New("unexpected EOF"), "unexpected EOF"},
	}
	for _, tt := range tests {
		if got := Problem(tt.err); got != tt.want {
			t.Errorf("%s: Problem = %q, want %q", tt.name, got, tt.want)
		}
	}
}
