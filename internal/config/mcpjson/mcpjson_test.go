package mcpjson

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/internal/toolname"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		toml  string
		notes []string
	}{{
		name: "claude desktop",
		in: `{"mcpServers": {
			"filesystem": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/home/ada/Desktop"]},
			"github": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"],
			           "env": {"GITHUB_PERSONAL_ACCESS_TOKEN": "ghp_abc", "LOG_LEVEL": "warn"}}
		}}`,
		toml: `[mcp_servers.filesystem]
command = "npx -y @modelcontextprotocol/server-filesystem /home/ada/Desktop"

[mcp_servers.github]
command = "npx -y @modelcontextprotocol/server-github"
env.GITHUB_PERSONAL_ACCESS_TOKEN = { secret = "env:GITHUB_PERSONAL_ACCESS_TOKEN" }
env.LOG_LEVEL = "warn"
`,
		notes: []string{`"github": env.GITHUB_PERSONAL_ACCESS_TOKEN: its value is not copied into the configuration; toolhost reads it from its environment: export GITHUB_PERSONAL_ACCESS_TOKEN=… where toolhost starts (or keep it in an owner-only file or the keyring: docs/config.md#secrets)`},
	}, {
		name: "vs code mcp.json with comments, inputs and a trailing comma",
		in: `{
			// the servers of this workspace
			"inputs": [{"type": "promptString", "id": "gh-token", "password": true}],
			"servers": {
				"gh": {"type": "http", "url": "https://api.example.com/mcp/",
				       "headers": {"Authorization": "Bearer ${input:gh-token}", "X-Team": "tools"}},
				"local": {"type": "stdio", "command": "node", "args": ["${workspaceFolder}/server.js"],
				          "env": {"API_KEY": "${env:MY_KEY}"}, "cwd": "${workspaceFolder}"}, /* the last one */
			},
		}`,
		toml: `[mcp_servers.gh]
url = "https://api.example.com/mcp/"
headers.X-Team = "tools"
bearer_token_env = "GH_TOKEN"

[mcp_servers.local]
command = "node ./server.js"
dir = "."
env.API_KEY = { secret = "env:MY_KEY" }
`,
		notes: []string{`"gh": its bearer token is not copied into the configuration; toolhost reads it from the variable GH_TOKEN: export GH_TOKEN=… where toolhost starts`},
	}, {
		name: "vs code settings.json, sse, a disabled server and keys of other clients",
		in: `{"editor.fontSize": 12, "mcp": {"servers": {
			"old": {"type": "sse", "url": "http://localhost:3000/sse", "headers": {"X-Api-Key": "k"}},
			"off": {"command": "srv", "disabled": true, "autoApprove": ["x"], "alwaysAllow": []}
		}}}`,
		toml: `[mcp_servers.old]
url = "http://localhost:3000/sse"

[mcp_servers.off]
command = "srv"
enabled = false
`,
		notes: []string{
			`"old": "type": "sse" is the older transport; toolhost speaks streamable HTTP: if toolhost check says the server does not answer, use its streamable HTTP endpoint (often /mcp instead of /sse)`,
			`"old": headers.X-Api-Key is left out: it looks like a credential, and a header's value in the configuration is plain text; if the server needs it, add it with toolhost edit`,
			`"off": not imported (no toolhost equivalent): alwaysAllow, autoApprove`,
		},
	}, {
		name: "names made valid, servers left out",
		in: `{"mcpServers": {
			"my server.v2": {"command": "a b"},
			"my-server-v2": {"command": "b"},
			"both": {"command": "x", "url": "https://h/mcp"},
			"neither": {},
			"ws": {"type": "websocket", "url": "https://h/ws"},
			"creds": {"url": "https://u:p@h/mcp"},
			"plain": {"url": "http://example.com/mcp", "headers": {"Authorization": "Bearer ${env:T}"}},
			"me": {"command": "/usr/local/bin/toolhost", "args": ["serve"]},
			"num": {"command": "x", "args": [1]},
			"home": {"command": "srv", "args": ["${userHome}/data", "${env:X}"], "env": {"P": "${workspaceFolder}/x"}, "envFile": ".env"},
			"query": {"url": "https://h/mcp?profile=dev&api_key=abc"},
			"querytok": {"url": "https://h/mcp?k=ghp_abc"},
			"argtok": {"command": "srv", "args": ["--token=ghp_abc"]},
			"argtok2": {"command": "srv", "args": ["--key", "sk-abc"]},
			"fine": {"url": "https://h/mcp?profile=dev"},
			"fine2": {"command": "srv", "args": ["--profile=dev", "--key-file", "k.pem"]}
		}}`,
		toml: `[mcp_servers.my-server-v2]
command = ["a b"]

[mcp_servers.my-server-v2-2]
command = "b"

[mcp_servers.plain]
url = "http://example.com/mcp"

[mcp_servers.home]
command = ["srv", "/home/ada/data", "${env:X}"]
env.P = "${workspaceFolder}/x"

[mcp_servers.fine]
url = "https://h/mcp?profile=dev"

[mcp_servers.fine2]
command = "srv --profile=dev --key-file k.pem"
`,
		notes: []string{
			`"my server.v2": named my-server-v2: a server's name is 1 to 64 letters, digits, '_' or '-'`,
			`"my-server-v2": named my-server-v2-2: a server's name is 1 to 64 letters, digits, '_' or '-'`,
			`"both": left out: it has both "command" and "url"; keep one in the file and import again`,
			`"neither": left out: it has neither "command" nor "url"`,
			`"ws": left out: "type" "websocket" is a transport toolhost does not speak (it speaks stdio and streamable HTTP)`,
			`"creds": left out: its URL holds a user or password: take the credential out of the URL, then import again`,
			`"plain": its bearer token is left out: the URL is plain http:// to a host that is not this machine, where anyone on the path could read it; use the server's https:// URL, or set bearer_token_env and insecure = true with toolhost edit`,
			`"me": left out: it is toolhost itself, which would serve its own tools`,
			`"num": left out: "args": a number where a string belongs`,
			`"home": "${env:X}" is passed as written; toolhost does not expand ${…} in arguments`,
			`"home": env.P: "${workspaceFolder}/x" is passed as written; toolhost does not expand ${…} in values`,
			`"home": envFile ".env" is not read: put its variables in env`,
			`"query": left out: its URL's query holds a credential (api_key): take it out of the URL (the server may take it as a header), then import again`,
			`"querytok": left out: its URL's query holds a credential (k): take it out of the URL (the server may take it as a header), then import again`,
			`"argtok": left out: its argument 1 looks like a credential, which the configuration would hold as plain text: have the server read it from a variable in env, then import again`,
			`"argtok2": left out: its argument 2 looks like a credential, which the configuration would hold as plain text: have the server read it from a variable in env, then import again`,
		},
	}, {
		name: "bearer tokens of servers whose names map to one variable",
		in: `{"mcpServers": {
			"a.b": {"url": "https://one.example.com/mcp", "headers": {"Authorization": "Bearer t1"}},
			"a-b": {"url": "https://two.example.com/mcp", "headers": {"Authorization": "Bearer t2"}}
		}}`,
		toml: `[mcp_servers.a-b]
url = "https://one.example.com/mcp"
bearer_token_env = "A_B_TOKEN"

[mcp_servers.a-b-2]
url = "https://two.example.com/mcp"
bearer_token_env = "A_B_2_TOKEN"
`,
		notes: []string{
			`"a.b": named a-b: a server's name is 1 to 64 letters, digits, '_' or '-'`,
			`"a.b": its bearer token is not copied into the configuration; toolhost reads it from the variable A_B_TOKEN: export A_B_TOKEN=… where toolhost starts`,
			`"a-b": named a-b-2: a server's name is 1 to 64 letters, digits, '_' or '-'`,
			`"a-b": its bearer token is not copied into the configuration; toolhost reads it from the variable A_B_2_TOKEN: export A_B_2_TOKEN=… where toolhost starts`,
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Parse([]byte(tt.in), &Options{Home: "/home/ada"})
			if err != nil {
				t.Fatal(err)
			}
			if got := config.ServersText(r.Servers); got != tt.toml {
				t.Errorf("TOML:\n%s\nwant:\n%s", got, tt.toml)
			}
			if got, want := strings.Join(r.Notes, "\n"), strings.Join(tt.notes, "\n"); got != want {
				t.Errorf("notes:\n%s\nwant:\n%s", got, want)
			}
			if _, err := config.Parse("tools.toml", []byte(config.ServersText(r.Servers))); err != nil {
				t.Errorf("the TOML does not load: %v", err)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		in   string
		only []string
		want string
	}{
		{`{"mcpServers": {"a": {"command": "x"}}`, nil, "line 1, column 38: not JSON: unexpected end of JSON input"},
		{"{\n\"mcpServers\": {\n\"a\": {\"command\" \"x\"}}}", nil, `line 3, column 17: not JSON: invalid character '"' after object key`},
		{`{"mcpServers": {"a": {"command": "x"}, "a": {"command": "y"}}}`, nil, `duplicate key "a" in /mcpServers`},
		{`{"other": {}}`, nil, `no MCP servers found: the file has no "mcpServers" (Claude Desktop, Claude Code, Cursor, Windsurf), "servers" (VS Code's mcp.json) or "mcp": {"servers"} (VS Code's settings.json)`},
		{`{"mcpServers": []}`, nil, "mcpServers: not a JSON object of servers"},
		{`[]`, nil, "not a JSON object"},
		{`{"mcpServers": {"a": {"command": "x"}}}`, []string{"b"}, `the file has no server "b" (it has "a")`},
		{strings.Repeat(" ", MaxSize+1), nil, "the file is larger than 4 MiB: not a client's configuration"},
	}
	for _, tt := range tests {
		_, err := Parse([]byte(tt.in), &Options{Only: tt.only})
		if err == nil || err.Error() != tt.want {
			t.Errorf("Parse(%.40q) = %v, want %s", tt.in, err, tt.want)
		}
	}
}

func TestPlain(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"a": 1, // c` + "\n}", `{"a": 1      ` + "\n}"},
		{`{"a": "//not", /* c */ "b": [1,2,],}`, `{"a": "//not",         "b": [1,2 ] }`},
		{`{"a": "\"/*", "b": 1}`, `{"a": "\"/*", "b": 1}`},
		{`/* open`, `       `},
	}
	for _, tt := range tests {
		if got := string(plain([]byte(tt.in))); got != tt.want {
			t.Errorf("plain(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// FuzzParse: any input gives an error or servers whose tables load back,
// and plain keeps every offset.
func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"mcpServers": {"a": {"command": "x", "env": {"T": "${env:X}"}}}}`))
	f.Add([]byte(`{"servers": {"b": {"url": "https://h/mcp", "headers": {"Authorization": "Bearer t"}}}}`))
	f.Add([]byte(`{"mcp": {"servers": {"c d": {"command": "y", /* c */ "args": ["${userHome}"],},},}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if p := plain(data); len(p) != len(data) {
			t.Fatalf("plain changed the length: %d to %d", len(data), len(p))
		}
		r, err := Parse(data, &Options{Home: "/home/ada"})
		if err != nil {
			return
		}
		text := config.ServersText(r.Servers)
		if _, err := config.Parse("tools.toml", []byte(text)); err != nil {
			t.Fatalf("the tables do not load: %v\n%s", err, text)
		}
	})
}

// TestParseManyLongNames: a file of more than a thousand servers whose
// names share their first 60 characters still gives each a valid, unique
// name. The suffix must not push a name past 64 characters.
func TestParseManyLongNames(t *testing.T) {
	const n = 1005
	long := strings.Repeat("a", 60)
	var b strings.Builder
	b.WriteString(`{"mcpServers": {`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"%s.%d": {"command": "x"}`, long, i)
	}
	b.WriteString(`}}`)
	done := make(chan *Result, 1)
	go func() {
		r, err := Parse([]byte(b.String()), nil)
		if err != nil {
			t.Error(err)
		}
		done <- r
	}()
	var r *Result
	select {
	case r = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Parse did not return within 10 s")
	}
	if r == nil || len(r.Servers) != n {
		t.Fatalf("got %d servers, want %d", len(r.Servers), n)
	}
	seen := map[string]bool{}
	for _, s := range r.Servers {
		if !toolname.Valid(s.Name) || seen[s.Name] {
			t.Fatalf("name %q: not valid or not unique", s.Name)
		}
		seen[s.Name] = true
	}
	if got, want := r.Servers[n-1].Name, strings.Repeat("a", 59)+"-1005"; got != want {
		t.Errorf("last name = %q, want %q", got, want)
	}
}
