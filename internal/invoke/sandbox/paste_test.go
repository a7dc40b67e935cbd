package sandbox_test

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"

	"github.com/toolhost/toolhost/internal/invoke"
	"github.com/toolhost/toolhost/internal/invoke/sandbox"
	"github.com/toolhost/toolhost/tool"
)

// TestDenialFixPasted: each fix that adds a rule works when pasted: the
// tool refused runs once the rule (and the step before it, if any) is
// applied.
func TestDenialFixPasted(t *testing.T) {
	needLandlock(t)
	ln := listen(t, "tcp", "127.0.0.1:0")
	addr := ln.Addr().(*net.TCPAddr).String()
	updateOnly := func() *sandbox.Policy {
		return &sandbox.Policy{Access: tool.Access{FS: []tool.AccessFS{{Path: ".", Read: yes()}, {Path: "src", Read: yes(), Update: yes()}}}}
	}
	on := func() *sandbox.Policy { return &sandbox.Policy{Mode: sandbox.ModeOn} }
	tests := []struct {
		name     string
		pol      func() *sandbox.Policy
		scenario string
		arg      string // relative to the temporary HOME, or an address
		rule     string // the rule the fix adds
	}{
		{"read outside the workspace", on, "read-file", ".ssh/id_ed25519", `{path="~/.ssh/id_ed25519", read=true}`},
		{"write beside the workspace", on, "write-file", "notes.txt", `{path="~/notes.txt", read=true, update=true}`},
		{"write in a cache outside the workspace", on, "write-file", "cache/index", `{path="~/cache", create=true, update=true}`},
		{"create where only update is granted", updateOnly, "create-file", "work/src/new.txt", `{path="src", read=true, create=true, update=true}`},
		{"delete where only update is granted", updateOnly, "delete-file", "work/src/a.txt", `{path="src", read=true, update=true, delete=true}`},
		{"run a script outside the workspace", on, "exec", "bin/tool.sh", `{path="~/bin/tool.sh", read=true, execute=true}`},
		{"connect", on, "connect", addr, fmt.Sprintf(`{host="127.0.0.1", port=%d, allow=true}`, ln.Addr().(*net.TCPAddr).Port)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t)
			if err := os.Mkdir(filepath.Join(w.home, "cache"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Mkdir(filepath.Join(w.home, "bin"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(w.home, "bin/tool.sh"), []byte("#!/bin/sh\necho hi\n"), 0o755); err != nil {
				t.Fatal(err)
			}
			arg := tt.arg
			if tt.scenario != "connect" {
				arg = filepath.Join(w.home, arg)
			}
			pol := tt.pol()
			res, spec, err := w.run(t, pol, tt.scenario, arg)
			if err != nil || res.ExitCode != 1 {
				t.Fatalf("Run: %v, exit %d: want it refused", err, res.ExitCode)
			}
			d := invoke.Denied(spec, w.ws, res)
			if d == nil || d.Rule != tt.rule {
				t.Fatalf("denial %+v, want the rule %s (stderr %q)", d, tt.rule, res.StderrTail)
			}
			if name, ok := strings.CutPrefix(d.First, "touch ~/"); ok {
				if err := os.WriteFile(filepath.Join(w.home, name), nil, 0o644); err != nil {
					t.Fatal(err)
				}
			} else if d.First != "" {
				t.Fatalf("first step %q, want none or a touch", d.First)
			}
			paste(t, pol, d)
			res, _, err = w.run(t, pol, tt.scenario, arg)
			if err != nil || res.ExitCode != 0 {
				t.Errorf("with %s: %s pasted: %v, exit %d, stderr %q; want it to run", d.List, d.Rule, err, res.ExitCode, res.StderrTail)
			}
		})
	}
}

// paste adds d's rule to pol, as a person pasting it into the entry's
// access.fs or access.net would.
func paste(t *testing.T, pol *sandbox.Policy, d *sandbox.Denial) {
	t.Helper()
	var r struct {
		Rule struct {
			Path                                         string
			Read, Write, Create, Update, Delete, Execute *bool
			Host                                         string
			Port                                         *uint16
			Allow, Bind                                  bool
		}
	}
	if _, err := toml.Decode("rule = "+d.Rule, &r); err != nil {
		t.Fatalf("the rule %s is not TOML: %v", d.Rule, err)
	}
	switch d.List {
	case "access.fs":
		f := r.Rule
		pol.FS = append(pol.FS, tool.AccessFS{Path: f.Path, Read: f.Read, Write: f.Write, Create: f.Create, Update: f.Update, Delete: f.Delete, Execute: f.Execute})
	case "access.net":
		pol.Net = append(pol.Net, tool.AccessNet{Host: r.Rule.Host, Port: r.Rule.Port, Allow: r.Rule.Allow, Bind: r.Rule.Bind})
	default:
		t.Fatalf("list %q, want access.fs or access.net", d.List)
	}
}
