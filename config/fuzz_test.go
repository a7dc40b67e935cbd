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
		"[mcp_servers.fs]\ncommand = \"fs -v\"\nargs = [\"/\"]\nenv.A = \"1\"\nsandbox = \"require\"\nidle_timeout = \"1m\"\n[mcp_servers.gh]\nurl = \"https://h/mcp\"\nheaders = { X = \"y\" }\nbearer_token_env = \"T\"\nenabled = false\n[tools.r]\nsource = \"mcp.fs.read\"\ndescription = \"{{description}}\"\n[tools.all]\nsource = \"mcp.gh\"\nprefix = \"gh_\"\n[toolsets.s]\nsource = \"mcp.fs\"\nexclude = [\"w\"]\n",
		"[remotes.team]\nurl = \"http://10.0.0.2:8080\"\ninclude = [\"a\"]\ntimeout = \"5s\"\n[mcp_servers.x]\nurl = \"http://u:p@h\"\ncommand = []\n[tools.y]\nsource = \"mcp.\"\n",
		"[defaults]\nrun = \"ask\"\n[tools.x]\ncommand = \"a\"\nrequires_approval = false\nrun = \"skip\"\nquestions.q.answer = [1, 2.5, {k = true}]\ncancellation_response = \"no\"\n",
		"[defaults]\nrate_limit_per_minute = 30\n[tools.x]\ncommand = \"a\"\nrate_limit_per_minute = 0\n[toolsets.s]\ncommand = \"s\"\nrate_limit_per_minute = -1\n[tools.y]\ncommand = \"y\"\nrate_limit_per_minute = 1.5e3\n",
		"[defaults]\nmax_output = \"1MiB\"\nkeep_output = \"1h\"\n[tools.x]\ncommand = \"a\"\nmax_output = 2048\n[toolsets.s]\ncommand = \"s\"\nmax_output = \" 1.5 kib \"\n[tools.y]\ncommand = \"y\"\nmax_output = \"9e9GB\"\n",
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
		for _, s := range cfg.Servers {
			if s.Command.IsZero() == (s.URL == "") {
				t.Fatalf("server %q parsed with command %q and url %q: want exactly one", s.Name, s.Command, s.URL)
			}
		}
		for _, r := range cfg.Remotes {
			if r.URL == "" {
				t.Fatalf("remote %q parsed without a url", r.Name)
			}
		}
		for _, e := range cfg.Tools {
			if e.Server != "" {
				if cfg.Servers[e.Server] == nil || !e.Command.IsZero() {
					t.Fatalf("tool %q parsed with server %q (configured: %v) and command %q", e.Name, e.Server, cfg.Servers[e.Server] != nil, e.Command)
				}
			} else if e.Command.IsZero() {
				t.Fatalf("tool %q parsed without a command", e.Name)
			}
			if e.RateLimit < 0 {
				t.Fatalf("tool %q parsed with rate_limit_per_minute %d", e.Name, e.RateLimit)
			}
			if _, set := e.Pos["max_output"]; set && (e.MaxOutput < 1<<10 || e.MaxOutput > 64<<20) {
				t.Fatalf("tool %q parsed with max_output %d", e.Name, e.MaxOutput)
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
