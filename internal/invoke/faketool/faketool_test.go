package faketool_test

import (
	"errors"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/internal/invoke/faketool"
)

func TestMain(m *testing.M) {
	faketool.Main(m, faketool.Scenarios{
		"args": func() int { // prints its arguments, one a line
			for _, a := range os.Args[2:] {
				os.Stdout.WriteString(a + "\n")
			}
			return 0
		},
	})
}

func TestCommand(t *testing.T) {
	tests := []struct {
		argv []string
		env  []string
		code int
		out  string
	}{
		{faketool.Command(t, "plain"), nil, 0, "hello world\n"},
		{faketool.Command(t, "args", "a b", "-test.v"), nil, 0, "a b\n-test.v\n"},
		{faketool.Command(t, "exit-3"), nil, 3, ""},
		{[]string{faketool.Exe(t), "nope"}, nil, 2, ""},
		{[]string{faketool.Exe(t)}, nil, 2, ""},
		{faketool.Command(t, "plain"), []string{faketool.Env + "="}, 98, ""}, // the environment cleared
	}
	for _, tt := range tests {
		cmd := exec.Command(tt.argv[0], tt.argv[1:]...)
		cmd.Env = append(os.Environ(), tt.env...)
		out, err := cmd.Output()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != tt.code || string(out) != tt.out {
			t.Errorf("%q %q: exit %d, stdout %q; want %d, %q", tt.argv[1:], tt.env, code, out, tt.code, tt.out)
		}
	}
}

func TestTOML(t *testing.T) {
	want := "[" + strconv.Quote(faketool.Exe(t)) + `, "args", "say \"hi\"\\"]`
	if got := faketool.TOML(t, "args", `say "hi"\`); got != want {
		t.Errorf("TOML = %s, want %s", got, want)
	}
}

// TestOnlyTestsImport checks that no file of the module but a _test.go file
// imports the test-only packages: this one and internal/face/mcpserver/mcptest.
func TestOnlyTestsImport(t *testing.T) {
	testOnly := map[string]bool{`"github.com/toolhost/toolhost/internal/invoke/faketool"`: true, `"github.com/toolhost/toolhost/internal/face/mcpserver/mcptest"`: true}
	root := filepath.Join("..", "..", "..")
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatal(err)
	}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "bin") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			if testOnly[imp.Path.Value] {
				t.Errorf("%s imports %s, which is for tests only", path, imp.Path.Value)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
