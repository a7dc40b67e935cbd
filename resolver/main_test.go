package resolver

import (
	"flag"
	"fmt"
	"os"
	"reflect"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata")

func writeFile(t testing.TB, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func diff(want, got any) string {
	if reflect.DeepEqual(want, got) {
		return ""
	}
	return fmt.Sprintf("-%#v\n+%#v", want, got)
}
