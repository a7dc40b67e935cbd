package mcp

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestNotFound: a stdio server whose program is not there (not on PATH,
// no file at its path, a #! interpreter that does not exist) fails with
// ErrStart, NotFound true and a fix that says to install it or point
// command at it; a program that is there but cannot run is not NotFound.
func TestNotFound(t *testing.T) {
	dir := t.TempDir()
	noInterp := filepath.Join(dir, "no-interp")
	if err := os.WriteFile(noInterp, []byte("#!/nonexistent/interpreter\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	notExec := filepath.Join(dir, "not-exec")
	if err := os.WriteFile(notExec, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	for _, tt := range []struct {
		name, command string
		wantMsg       string
		wantFix       string
		notFound      bool
	}{
		{"not on PATH", "mcp-server-nowhere",
			`mcp server "s": start: the server did not start: exec: "mcp-server-nowhere": executable file not found in $PATH`,
			`install mcp-server-nowhere (e.g. npm install -g PACKAGE, pip install PACKAGE) so that it is on PATH, or give the full path of the installed program as command`, true},
		{"no file at its path", "/nonexistent/mcp-server",
			`mcp server "s": start: the server did not start: exec: "/nonexistent/mcp-server": stat /nonexistent/mcp-server: no such file or directory`,
			`install the server at /nonexistent/mcp-server, or give the full path of the installed program as command`, true},
		{"its interpreter missing", noInterp,
			`mcp server "s": start: the server did not start: executable not found: ` + noInterp + `: fork/exec ` + noInterp + `: no such file or directory`,
			`install the server at ` + noInterp + `, or give the full path of the installed program as command`, true},
		{"not executable", notExec,
			`mcp server "s": start: the server did not start: exec: "` + notExec + `": permission denied`,
			`check that "` + notExec + `" is installed and on PATH, or give its full path as command`, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			spec := fakeSpec(t, "s", "basic")
			spec.Command, spec.Args = tt.command, nil
			s := newSource(t, spec, nil)
			_, err := s.Refresh(t.Context())
			var e *Error
			if !errors.As(err, &e) || !errors.Is(err, ErrStart) {
				t.Fatalf("Refresh = %v, want an *Error wrapping ErrStart", err)
			}
			if got := err.Error(); got != tt.wantMsg {
				t.Errorf("message mismatch (-want +got):\n-%s\n+%s", tt.wantMsg, got)
			}
			if e.Fix != tt.wantFix {
				t.Errorf("fix mismatch (-want +got):\n-%s\n+%s", tt.wantFix, e.Fix)
			}
			if got := NotFound(err); got != tt.notFound {
				t.Errorf("NotFound = %v, want %v", got, tt.notFound)
			}
		})
	}
}
