package config

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/tool"
)

// fsPaths renders an entry's fs rules as "path:r,w,c,u,d,x" for comparison.
func fsPaths(a *tool.Access) string {
	if a == nil {
		return "<nil>"
	}
	b := func(p *bool) string {
		if p == nil {
			return "-"
		}
		return fmt.Sprint(*p)[:1]
	}
	var out []string
	for _, r := range a.FS {
		out = append(out, fmt.Sprintf("%s:%s%s%s%s%s%s%v", r.Path, b(r.Read), b(r.Write), b(r.Create), b(r.Update), b(r.Delete), b(r.Execute), map[bool]string{true: "E"}[r.External]))
	}
	return strings.Join(out, " ")
}

func TestAccessLayers(t *testing.T) {
	tests := []struct {
		name    string
		layers  []string
		fs      string
		sandbox string
		net     int
		env     int
	}{
		{"inline array, write alias kept as written",
			[]string{"[tools.x]\ncommand = \"x\"\naccess.fs = [{path = \".\", read = true}, {path = \"src\", write = true, delete = false}]\n"},
			".:t----- src:-t--f-", "", 0, 0},
		{"array of tables",
			[]string{"[tools.x]\ncommand = \"x\"\n[[tools.x.access.fs]]\npath = \"fork\"\nexternal = true\nread = true\n"},
			"fork:t-----E", "", 0, 0},
		{"later layers append",
			[]string{"[tools.x]\ncommand = \"x\"\naccess.fs = [{path = \".\", read = true}]\n", "[tools.x]\naccess.fs = [{path = \"src\", update = true}]\n"},
			".:t----- src:---t--", "", 0, 0},
		{"replace strategy",
			[]string{"[tools.x]\ncommand = \"x\"\naccess.fs = [{path = \".\", read = true}]\n", "[tools.x]\naccess.fs = {strategy = \"replace\", value = [{path = \"src\", read = true}]}\n"},
			"src:t-----", "", 0, 0},
		{"an entry's replace strategy replaces [defaults]' rules too",
			[]string{"[defaults]\naccess.fs = [{path = \"~/.cache\", read = true}]\n[tools.x]\ncommand = \"x\"\naccess.fs = {strategy = \"replace\", value = [{path = \"src\", read = true}]}\n"},
			"src:t-----", "", 0, 0},
		{"defaults come first and set sandbox",
			[]string{"[defaults]\nsandbox = true\naccess.fs = [{path = \"~/.cache\", read = true}]\naccess.env = [{name = \"AWS_*\", read = true}]\n[tools.x]\ncommand = \"x\"\naccess.fs = [{path = \".\", read = true}]\naccess.net = [{host = \"API.github.com\", port = 443, allow = true}]\n"},
			"~/.cache:t----- .:t-----", "true", 1, 1},
		{"entry sandbox wins",
			[]string{"[defaults]\nsandbox = true\n[tools.x]\ncommand = \"x\"\nsandbox = \"require\"\n"},
			"<nil>", "require", 0, 0},
		{"sandbox false",
			[]string{"[tools.x]\ncommand = \"x\"\nsandbox = false\n"},
			"<nil>", "false", 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, _, err := loadLayers(t, tt.layers...)
			if err != nil {
				t.Fatal(err)
			}
			e := cfg.Tools["x"]
			if got := fsPaths(e.Access); got != tt.fs {
				t.Errorf("fs mismatch (-want +got)\n-%s\n+%s", tt.fs, got)
			}
			if e.Sandbox != tt.sandbox {
				t.Errorf("sandbox = %q, want %q", e.Sandbox, tt.sandbox)
			}
			if e.Access != nil && (len(e.Access.Net) != tt.net || len(e.Access.Env) != tt.env) {
				t.Errorf("net, env = %d, %d; want %d, %d", len(e.Access.Net), len(e.Access.Env), tt.net, tt.env)
			}
			if tt.net > 0 && (e.Access.Net[0].Host != "api.github.com" || *e.Access.Net[0].Port != 443 || !e.Access.Net[0].Allow) {
				t.Errorf("net rule = %+v", e.Access.Net[0])
			}
		})
	}
}

func TestAccessErrors(t *testing.T) {
	tests := []struct {
		src  string
		kind error
		msg  string
	}{
		{"access.fs = [{read = true}]", ErrInvalid, `x.toml:3: tools.x.access.fs[0]: every rule needs a path, such as path = "." (the workspace) or "~/.aws"`},
		{"access.fs = [{path = \".\", raed = true}]", ErrUnknownKey, `x.toml:3: unknown key "tools.x.access.fs.raed"`},
		{"access.fs = [{path = \".\", read = \"yes\"}]", ErrWrongType, `x.toml:3: tools.x.access.fs.read: want a boolean, got string "yes"`},
		{"access.net = [{host = \"a\", port = 70000}]", ErrInvalid, `x.toml:3: tools.x.access.net[0].port: want a TCP port from 1 to 65535, got integer 70000`},
		{"access.net = [{host = \"a\", bind = true}]", ErrInvalid, `x.toml:3: tools.x.access.net[0]: bind = true needs a port`},
		{"access.env = [{name = \"A*B\"}]", ErrInvalid, `x.toml:3: tools.x.access.env[0]: every rule needs a name, exact or a prefix ending in "*" (only there), such as name = "AWS_*"`},
		{"access.dns = []", ErrUnknownKey, `x.toml:3: unknown key "tools.x.access.dns"`},
		{"access.fs = {strategy = \"merge\", value = []}", ErrInvalid, `x.toml:3: tools.x.access.fs.strategy: want "append" or "replace", got string "merge"`},
		{"access.fs = \"all\"", ErrWrongType, `x.toml:3: tools.x.access.fs: want an array of tables, got string "all"`},
		{"sandbox = \"yes\"", ErrInvalid, `x.toml:3: tools.x.sandbox: want true, false or "require", got "yes"`},
		{"sandbox = 1", ErrWrongType, `x.toml:3: tools.x.sandbox: want true, false or "require", got integer 1`},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			_, err := Parse("x.toml", []byte("[tools.x]\ncommand = \"x\"\n"+tt.src+"\n"))
			if !errors.Is(err, tt.kind) || err.Error() != tt.msg {
				t.Errorf("err = %v\nwant %s (%v)", err, tt.msg, tt.kind)
			}
		})
	}
}
