package lazyre_test

import (
	"testing"

	"github.com/toolhost/toolhost/internal/lazyre"
)

func TestNew(t *testing.T) {
	re := lazyre.New(`^a+b$`)
	first := re()
	if !first.MatchString("aab") || first.MatchString("ab ") {
		t.Fatalf("%v does not match as ^a+b$ does", first)
	}
	if re() != first {
		t.Fatal("a second call compiled the expression again")
	}
	bad := lazyre.New(`(`)
	defer func() {
		if recover() == nil {
			t.Fatal("a bad expression did not panic on first use")
		}
	}()
	bad()
}
