package httpserver_test

import (
	"fmt"
	"os"
	"os/exec"
	"sync"
	"testing"

	"github.com/toolhost/toolhost/internal/testenv"
)

// TestMain keeps the user's files out of the tests: `toolhost serve`
// would write into the user's audit log, and Chromium into the user's
// config and cache directories.
func TestMain(m *testing.M) {
	code := testenv.Run(m)
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// built is the directory of the binaries [binaries] built, once per test
// binary.
var built struct {
	once sync.Once
	dir  string
	err  error
}

// binaries builds toolhost and the example tools greet and fs, once for
// all the tests, and returns the directory holding them.
func binaries(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		built.dir, built.err = os.MkdirTemp("", "httpserver-test-bin")
		if built.err != nil {
			return
		}
		cmd := exec.Command("go", "build", "-o", built.dir+"/", "./cmd/toolhost", "./examples/greet", "./examples/fs")
		cmd.Dir = "../.."
		if out, err := cmd.CombinedOutput(); err != nil {
			built.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.dir
}
