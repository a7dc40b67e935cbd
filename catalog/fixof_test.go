package catalog_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/toolhost/toolhost/catalog"
)

// ownError is a source's own error type that says its fix.
type ownError struct{ fix string }

func (e *ownError) Error() string   { return "the server did not start" }
func (e *ownError) FixText() string { return e.fix }

func TestFixOf(t *testing.T) {
	own := &ownError{fix: "run it by hand"}
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"none", errors.New("plain"), ""},
		{"an Error", &catalog.Error{Tool: "t", Err: errors.New("x"), Fix: "raise timeout"}, "raise timeout"},
		{"a Problem", catalog.Problem{Tool: "t", Err: errors.New("x"), Fix: "add parameters"}, "add parameters"},
		{"a source's own error, wrapped", fmt.Errorf("call: %w", own), "run it by hand"},
		{"an Error wins over what it wraps", &catalog.Error{Err: own, Fix: "the catalog's"}, "the catalog's"},
		{"a Problem without fix, then the source's", catalog.Problem{Err: own}, "run it by hand"},
	}
	for _, tt := range tests {
		if got := catalog.FixOf(tt.err); got != tt.want {
			t.Errorf("%s: FixOf = %q, want %q", tt.name, got, tt.want)
		}
	}
}
