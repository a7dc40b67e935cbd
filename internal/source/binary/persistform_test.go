package binary

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/tool"
)

// TestStoredProblem: a warning is stored as data and restored with the
// same text, fields and fix. Only a cause that matched ErrToolNotOffered
// matches a sentinel again (stored as data); a
// file cannot give a restored warning any other identity; a warning
// whose cause wraps another error is not stored.
func TestStoredProblem(t *testing.T) {
	notOffered := &catalog.Error{Tool: "fs", Source: "bin/fs", Op: string(tool.ActionSchema),
		Err: fmt.Errorf("%w: include names %q; the binary offers \"a\", \"b\"", ErrToolNotOffered, "c")}
	tests := []struct {
		name       string
		p          catalog.Problem
		notStored  bool
		notOffered bool
	}{
		{"plain", catalog.Problem{Tool: "t", Place: "tools.toml:3", Warning: true, Err: errors.New("a warning"), Fix: "do this"}, false, false},
		{"not offered", catalog.Problem{Tool: "fs", Place: "tools.toml:7", Warning: true, Err: notOffered}, false, true},
		{"wraps a timeout", catalog.Problem{Tool: "t", Warning: true, Err: fmt.Errorf("slow: %w", catalog.ErrTimeout)}, true, false},
		{"an Error wrapping a timeout", catalog.Problem{Tool: "t", Warning: true, Err: &catalog.Error{Tool: "t", Err: catalog.ErrTimeout}}, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sp, err := storeProblem(tt.p)
			if tt.notStored {
				if !errors.Is(err, errNotStored) {
					t.Fatalf("storeProblem = %v, want errNotStored", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			data, err := json.Marshal([]storedProblem{sp})
			if err != nil {
				t.Fatal(err)
			}
			var back []storedProblem
			if err := json.Unmarshal(data, &back); err != nil {
				t.Fatal(err)
			}
			got := back[0].restore()
			if got.Error() != tt.p.Error() || got.Fix != tt.p.Fix || got.Place != tt.p.Place || !got.Warning {
				t.Errorf("restored %q (fix %q), want %q (fix %q)", got.Error(), got.Fix, tt.p.Error(), tt.p.Fix)
			}
			if is := errors.Is(got, ErrToolNotOffered); is != tt.notOffered {
				t.Errorf("errors.Is(ErrToolNotOffered) = %v, want %v", is, tt.notOffered)
			}
			var e *catalog.Error
			if errors.As(tt.p, &e) {
				var ge *catalog.Error
				if !errors.As(got, &ge) || ge.Tool != e.Tool || ge.Source != e.Source || ge.Op != e.Op {
					t.Errorf("restored *Error %+v, want %+v", ge, e)
				}
			}
		})
	}
	// What an older file said of a warning's sentinels is not believed.
	var hostile []storedProblem
	if err := json.Unmarshal([]byte(`[{"tool":"t","msg":"m","kinds":["timeout","exit"]}]`), &hostile); err != nil {
		t.Fatal(err)
	}
	if p := hostile[0].restore(); errors.Is(p, catalog.ErrTimeout) || errors.Is(p, ErrExit) {
		t.Errorf("a stored warning's kinds made it match a sentinel: %v", p)
	}
}
