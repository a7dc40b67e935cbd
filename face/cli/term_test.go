package cli

import (
	"bytes"
	"os"
	"regexp"
	"strings"
	"testing"
)

var ansi = regexp.MustCompile("\x1b\\[[0-9;]*m")

func TestColourTablesStayAligned(t *testing.T) {
	for _, on := range []bool{false, true} {
		var buf bytes.Buffer
		a := &app{ioStreams: ioStreams{stdout: &buf, out: palette{on: on}}}
		a.writeParams(&buf, map[string]any{
			"type": "object",
			"properties": map[string]any{
				"a":           map[string]any{"type": "string"},
				"much_longer": map[string]any{"type": "integer", "default": 3},
			},
			"required": []any{"a"},
		}, "  ")
		got := buf.String()
		if on != strings.Contains(got, "\x1b[") {
			t.Errorf("colour %v: output %q", on, got)
		}
		want := "  PARAMETER    TYPE     REQUIRED  DEFAULT  DESCRIPTION\n" +
			"  a            string   yes       -\n" +
			"  much_longer  integer  no        3\n"
		if plain := ansi.ReplaceAllString(got, ""); plain != want {
			t.Errorf("colour %v: table mismatch (-want +got):\n-%q\n+%q", on, want, plain)
		}
	}
}

func TestNewPalette(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	var buf bytes.Buffer
	if newPalette(&buf, env(nil)).on {
		t.Error("colour on for a buffer")
	}
	if newPalette(os.Stdout, env(map[string]string{"NO_COLOR": "1"})).on {
		t.Error("colour on with NO_COLOR")
	}
	if newPalette(os.Stdout, env(map[string]string{"TERM": "dumb"})).on {
		t.Error("colour on with TERM=dumb")
	}
	if p := (palette{}); p.red("x") != "x" {
		t.Error("colour off still colours")
	}
}
