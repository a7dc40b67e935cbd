package sdk

import (
	"context"
	"os"
	"testing"
)

func TestHint(t *testing.T) {
	noop := func(context.Context, struct{}) (string, error) { return "", nil }
	got := hint("bin/fs", []*Tool{New("read_file", "", noop, nil), New("write_file", "", noop, nil)})
	want := `fs serves the tools [read_file write_file] to a host such as toolhost: it reads one JSON request on stdin. Try: echo '{"context":{"action":"schema"}}' | bin/fs`
	if got != want {
		t.Errorf("hint mismatch\nwant %s\ngot  %s", want, got)
	}
}

func TestIsTerminal(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	for _, f := range []*os.File{r, null} {
		if isTerminal(f) {
			t.Errorf("isTerminal(%s) = true", f.Name())
		}
	}
	if tty, err := os.Open("/dev/tty"); err == nil { // only where a terminal exists
		defer tty.Close()
		if !isTerminal(tty) {
			t.Error("isTerminal(/dev/tty) = false")
		}
	}
}

func TestArgvRequest(t *testing.T) {
	tests := []struct {
		args []string
		want string // "" for not a request
	}{
		{[]string{`{"action":"run","root":"/r"}`, `{"name":"greet","arguments":{"name":"Ada"}}`},
			`{"context":{"action":"run","root":"/r"},"tool":{"name":"greet","arguments":{"name":"Ada"}}}`},
		{[]string{` {"action":"schema"} `, `null`}, ""},
		{[]string{`{"action":"run"}`}, ""},
		{[]string{`--help`, `x`}, ""},
		{[]string{`{"action":`, `{}`}, ""},
		{nil, ""},
	}
	for _, tt := range tests {
		got, ok := argvRequest(tt.args)
		if ok != (tt.want != "") || string(got) != tt.want {
			t.Errorf("argvRequest(%q) = %s, %v; want %s", tt.args, got, ok, tt.want)
		}
	}
}
