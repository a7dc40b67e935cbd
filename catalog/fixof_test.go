package catalog_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/toolhost/toolhost/catalog"
)

// TestFixOf: a fix is only ever a field, of a Problem or of an *Error,
// found however deep it is wrapped.
func TestFixOf(t *testing.T) {
	own := &catalog.Error{Op: "start", Source: "mcp.fs", Err: errors.New("the server did not start"), Fix: "run it by hand"}
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
		{"an Error without fix, then the one it wraps", &catalog.Error{Tool: "t", Err: fmt.Errorf("listing: %w", own)}, "run it by hand"},
	}
	for _, tt := range tests {
		if got := catalog.FixOf(tt.err); got != tt.want {
			t.Errorf("%s: FixOf = %q, want %q", tt.name, got, tt.want)
		}
	}
}
