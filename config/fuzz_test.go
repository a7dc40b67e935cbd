package config

import (
	"bytes"
	"errors"
	"testing"
)

func FuzzParse(f *testing.F) {
	seeds := []string{
		"",
		"[tools.greet]\ncommand = \"bin/greet\"\n",
		"[defaults]\ntimeout = \"30s\"\n[tools.s]\ncommand = [\"bin/fs\"]\nsource = \"local.grep\"\n[tools.s.parameters.p]\ntype = [\"string\"]\nitems = { type = \"x\" }\n",
		"[toolsets.fs]\ncommand = \"bin/fs\"\nprefix = \"fs_\"\nexclude = [\"a\"]\n",
		"[tools]\n\"a.b\".command = '''\nx\n'''\n[categories.c]\nname = \"\"\"n\"\"\"\n",
		"x = [1, [2, {a = 3}], \"]\"] # c\n[[tools]]\n",
		"[tools.x]\ncommand = \"a 'b\"\ntimeout = \"-1s\"\n",
		"[defaults]\nrun = \"ask\"\n[tools.x]\ncommand = \"a\"\nrequires_approval = false\nrun = \"skip\"\nquestions.q.answer = [1, 2.5, {k = true}]\ncancellation_response = \"no\"\n",
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := Parse("f.toml", data)
		if err != nil {
			var ce *Error
			if !errors.As(err, &ce) {
				t.Fatalf("error is not *Error: %v", err)
			}
			return
		}
		for _, e := range cfg.Tools {
			if e.Command.IsZero() {
				t.Fatalf("tool %q parsed without a command", e.Name)
			}
			if e.checkRun() != nil { // run and requires_approval that disagree are never served
				t.Fatalf("tool %q parsed with run %v and requires_approval %v", e.Name, e.Run, e.RequiresApproval)
			}
		}
		scanKeys(data) // also on its own, for the light scanner
	})
}

func FuzzScanKeys(f *testing.F) {
	for _, s := range []string{"[a.b]\nc = 1", "a = \"\"\"\n\"\"\"\"", "a = {b = [{c = 1}]}", "[[x]]\n'y'.\"z\" = 2", "\"a\\u00e9\" = 1"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		k := scanKeys(data) // must not panic or loop
		lines := bytes.Count(data, []byte("\n")) + 1
		for _, path := range [][]string{{"a"}, {"a", "b"}, {"tools", "x", "command"}} {
			if n := k.line(path); n < 0 || n > lines {
				t.Fatalf("line(%q) = %d; the input has %d lines", path, n, lines)
			}
		}
	})
}
