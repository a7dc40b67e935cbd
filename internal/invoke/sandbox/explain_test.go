package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/tool"
)

func TestExplain(t *testing.T) {
	home := realPath(t.TempDir())
	ws := filepath.Join(home, "ws")
	for _, d := range []string{".aws", "ws/src", "ws/.git"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{".aws/credentials", "ws/src/a.txt"} {
		if err := os.WriteFile(filepath.Join(home, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(home, ".aws/credentials"), filepath.Join(ws, "leak")); err != nil {
		t.Fatal(err)
	}
	on := &Policy{Mode: ModeOn}
	yes := true
	other := realPath(t.TempDir()) // outside home
	if err := os.Mkdir(filepath.Join(other, "data"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(other, "node_modules/sdk/server"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(other, "node_modules/sdk/server/mcp.js"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for f, data := range map[string]string{"bin/tool.sh": "#!/bin/sh\necho hi\n", "bin/tool": "\x7fELF"} {
		if err := os.MkdirAll(filepath.Join(other, filepath.Dir(f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(other, f), []byte(data), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name string
		pol  *Policy
		out  string
		what string
		fix  string
	}{
		{"go open of a missing file beside the workspace", on, "open " + home + "/notes.txt: permission denied",
			"create of ~/notes.txt", `make the file first (touch ~/notes.txt), then access.fs: add {path="~/notes.txt", read=true, update=true}: the sandbox cannot let a tool create entries directly in "~", which holds the workspace (docs/security.md, "Limits")`},
		{"listing /proc/self/fd", on, "ls: cannot open directory '/proc/self/fd': Permission denied",
			"read of /proc/self/fd", `a sandboxed tool gets no /proc, not even its own /proc/self: it reads its standard streams as /dev/stdin or /dev/fd/N, which work; set sandbox = false in the entry if it needs more (docs/security.md, "Limits")`},
		{"listing /dev/fd", on, "ls: cannot open directory '/dev/fd/': Permission denied",
			"read of /dev/fd", `a sandboxed tool gets no /proc, not even its own /proc/self: it reads its standard streams as /dev/stdin or /dev/fd/N, which work; set sandbox = false in the entry if it needs more (docs/security.md, "Limits")`},
		{"python read", on, "PermissionError: [Errno 13] Permission denied: '" + home + "/.aws/credentials'",
			"read of ~/.aws/credentials", `access.fs: add {path="~/.aws/credentials", read=true}`},
		{"sh redirect into .git", on, "sh: 1: cannot create " + ws + "/.git/x: Permission denied",
			"create of .git/x", `the default profile keeps .git and .config/toolhost read-only on purpose: a tool that could write them could rewrite history or register commands the next start runs; make this change yourself (docs/security.md)`},
		{"mkdir in a UTF-8 locale, the path in curly quotes", on, "mkdir: cannot create directory ‘" + other + "/data/sub’: Permission denied",
			"create of " + other + "/data/sub", `access.fs: add {path="` + other + `/data", create=true, update=true}`},
		{"rm, relative", &Policy{Access: tool.Access{FS: []tool.AccessFS{{Path: ".", Read: &yes}}}}, "rm: cannot remove 'src/a.txt': Permission denied",
			"delete of src/a.txt", `access.fs: add {path="src", read=true, delete=true}`},
		{"create in directories to make", &Policy{Access: tool.Access{FS: []tool.AccessFS{{Path: ".", Read: &yes}, {Path: "src", Read: &yes}}}}, "writing src/new/deep/a.txt: permission denied",
			"create of src/new/deep/a.txt", `access.fs: add {path="src", read=true, create=true, update=true}`},
		{"update of an existing file", &Policy{Access: tool.Access{FS: []tool.AccessFS{{Path: ".", Read: &yes}}}}, "open src/a.txt: permission denied",
			"update of src/a.txt", `access.fs: add {path="src/a.txt", read=true, update=true}`},
		{"outside home", on, "cat: " + other + "/data/x: Permission denied",
			"create of " + other + "/data/x", `access.fs: add {path="` + other + `/data", create=true, update=true}`},
		{"node module outside the grants", on, "Error: Cannot find module '" + other + "/node_modules/sdk/server/mcp.js'",
			"read of " + other + "/node_modules/sdk/server/mcp.js", `access.fs: add {path="` + other + `/node_modules", read=true, execute=true}`},
		{"exec of a binary", on, "fork/exec " + other + "/bin/tool: permission denied",
			"execute of " + other + "/bin/tool", `access.fs: add {path="` + other + `/bin/tool", execute=true}`},
		{"exec of a script, which its interpreter reads", on, "fork/exec " + other + "/bin/tool.sh: permission denied",
			"execute of " + other + "/bin/tool.sh", `access.fs: add {path="` + other + `/bin/tool.sh", read=true, execute=true}`},
		{"node module that is not there", on, "Error: Cannot find module '" + other + "/node_modules/nosuch.js'", "", ""},
		{"go dial", on, "dial tcp 10.0.0.1:443: connect: permission denied",
			"a TCP connection to 10.0.0.1:443", `access.net: add {host="10.0.0.1", port=443, allow=true}`},
		{"bash /dev/tcp", on, "bash: connect: Permission denied\nbash: line 1: /dev/tcp/127.0.0.1/47001: Permission denied",
			"a TCP connection to 127.0.0.1:47001", `access.net: add {host="127.0.0.1", port=47001, allow=true}`},
		{"bash /dev/udp", on, "bash: socket: Permission denied\nbash: line 1: /dev/udp/8.8.8.8/53: Permission denied",
			"UDP to 8.8.8.8:53", `access.net: add {host="8.8.8.8", port=53, allow=true}`},
		{"python -c UDP socket", on, pyUDP, "a UDP or unix socket", udpWhy + "; no rule allows a unix socket; set sandbox = false in the entry if it needs one (docs/security.md)"},
		{"python UDP socket, the source shown", on, strings.Replace(pyUDP, "line 1, in <module>", "line 2, in <module>\n    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)", 1),
			"a UDP socket", udpWhy + "; set sandbox = false in the entry if it needs UDP (docs/security.md)"},
		{"python unix socket, the source shown", on, strings.Replace(pyUDP, "line 1, in <module>", "line 2, in <module>\n    s = socket.socket(socket.AF_UNIX)", 1),
			"a unix socket", unixWhy + "; set sandbox = false in the entry if it needs one (docs/security.md)"},
		{"python socket where a rule allows some network", &Policy{Mode: ModeOn, Access: tool.Access{Net: []tool.AccessNet{{Host: "example.com", Allow: true}}}}, pyUDP, "", ""},
		{"python -c create_connection", on, pyConnect,
			"a TCP connection", `add an access.net rule for the host and port the tool connects to, {host="HOST", port=PORT, allow=true}; set sandbox = false in the entry if it needs the network (docs/security.md)`},
		{"python create_connection, the source shown", on, strings.Replace(pyConnect, "line 1, in <module>", "line 1, in <module>\n    s = socket.create_connection((\"127.0.0.1\", 22), timeout=2)", 1),
			"a TCP connection to 127.0.0.1:22", `access.net: add {host="127.0.0.1", port=22, allow=true}`},
		{"python connect where the plan leaves TCP alone", &Policy{Access: tool.Access{FS: []tool.AccessFS{{Path: ".", Read: &yes}}}}, pyConnect, "", ""},
		{"python, a path's PermissionError beside no socket", on, "Traceback (most recent call last):\n  File \"<string>\", line 1, in <module>\nPermissionError: [Errno 13] Permission denied", "", ""},
		{"node UDP", on, "Error: bind EACCES 0.0.0.0\n    at node:dgram:373:20\n  syscall: 'bind',",
			"a UDP socket", udpWhy + "; set sandbox = false in the entry if it needs UDP (docs/security.md)"},
		{"node UDP bound to a port", on, "Error: bind EACCES 0.0.0.0:5353\n    at node:dgram:373:20",
			"a UDP socket", udpWhy + "; set sandbox = false in the entry if it needs UDP (docs/security.md)"},
		{"node connect, with the URL's host", on, "npm error FetchError: request to https://registry.npmjs.org/left-pad failed, reason: connect EACCES 104.16.1.35:443",
			"a TCP connection to registry.npmjs.org:443", `access.net: add {host="registry.npmjs.org", port=443, allow=true}`},
		{"node connect", on, "Error: connect EACCES 127.0.0.1:5432",
			"a TCP connection to 127.0.0.1:5432", `access.net: add {host="127.0.0.1", port=5432, allow=true}`},
		{"curl, no errno", on, "curl: (7) Failed to connect to registry.npmjs.org port 443 after 1 ms: Couldn't connect to server",
			"a TCP connection to registry.npmjs.org:443", `access.net: add {host="registry.npmjs.org", port=443, allow=true}`},
		{"curl, to a port a rule opens", &Policy{Mode: ModeOn, Access: tool.Access{Net: []tool.AccessNet{{Host: "example.com", Allow: true}}}}, "curl: (7) Failed to connect to registry.npmjs.org port 443 after 1 ms: Couldn't connect to server", "", ""},
		{"go listen", on, "listen tcp :8080: bind: permission denied",
			"listening on TCP port 8080", `access.net: add {host="localhost", port=8080, allow=true, bind=true}`},
		{"kill", on, "kill 4242: operation not permitted",
			"a signal to a process outside the sandbox", "a sandboxed tool may signal only the processes it started; set sandbox = false in the entry if it must signal others"},
		{"create directly in the workspace root", on, "open notes.txt: permission denied",
			"create of notes.txt", rootFix(`".git" below it may not`, `".git" below it may not be written`)},
		{"a bare name in the root, a link leading out", on, "wc: leak: Permission denied",
			"read of ~/.aws/credentials", `access.fs: add {path="~/.aws/credentials", read=true}`},
		{"no denial", on, "open /x: no such file or directory", "", ""},
		{"not enforced", &Policy{Mode: ModeOff, Access: tool.Access{FS: []tool.AccessFS{{Path: "."}}}}, "open /x/y: permission denied", "", ""},
		{"nil policy", nil, "open /x/y: permission denied", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := tt.pol.Explain(ws, home, []byte("starting\n"+tt.out+"\n"))
			if tt.what == "" {
				if d != nil {
					t.Fatalf("denial %+v, want none", d)
				}
				return
			}
			if d == nil || d.What != tt.what || d.Fix != tt.fix {
				t.Fatalf("denial = %+v\nwant %q / %q", d, tt.what, tt.fix)
			}
			// The rule travels apart from the words, as the fix says it.
			if d.List != "" && !strings.Contains(tt.fix, d.List+": add "+d.Rule) || d.List == "" && strings.Contains(tt.fix, ": add {") {
				t.Errorf("rule %q %q, not the fix's %q", d.List, d.Rule, tt.fix)
			}
			if d.First != "" && !strings.HasPrefix(tt.fix, "make the file first ("+d.First+"), then ") {
				t.Errorf("first %q, not the fix's %q", d.First, tt.fix)
			}
			if d.Error() != "the sandbox denied "+tt.what {
				t.Errorf("Error() = %q", d.Error())
			}
		})
	}
}

// FuzzExplain: whatever a tool prints, Explain returns without panicking.
func FuzzExplain(f *testing.F) {
	for _, s := range []string{"open /a/b: permission denied", "dial tcp [::1]:80: connect: permission denied",
		"kill: operation not permitted", "rm: cannot remove '../x': Permission denied", "listen tcp :99999: bind: permission denied",
		"request to https://registry.npmjs.org/x failed, reason: connect EACCES [::1]:443", "curl: (7) Failed to connect to [::1] port 99999 after 1 ms",
		"open /nowhere/a/b/c: permission denied", "open ../notes.txt: permission denied"} {
		f.Add([]byte(s))
	}
	root := f.TempDir()
	p := &Policy{Mode: ModeOn}
	f.Fuzz(func(t *testing.T, out []byte) {
		if d := p.Explain(root, "/home/nobody", out); d != nil && d.List != "" && !strings.Contains(d.Fix, d.List+": add "+d.Rule) {
			t.Errorf("fix %q does not add its rule %s %s", d.Fix, d.List, d.Rule)
		}
	})
}

// TestExplainRequire: a refusal no rule lifts ends its fix with turning
// the sandbox off only when the entry does not require the sandbox.
func TestExplainRequire(t *testing.T) {
	home := realPath(t.TempDir())
	ws := filepath.Join(home, "ws")
	if err := os.MkdirAll(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	const (
		unix   = "a sandboxed tool may not open unix sockets, since Landlock does not check connecting to one (the session bus, ssh-agent, docker.sock)"
		proc   = "a sandboxed tool gets no /proc, not even its own /proc/self: it reads its standard streams as /dev/stdin or /dev/fd/N, which work"
		signal = "a sandboxed tool may signal only the processes it started"
		pinned = `; no rule grants this, and the entry says sandbox = "require", so the tool runs confined or not at all`
	)
	tests := []struct {
		name, out, on, require string
	}{
		{"socket", "socket: Address family not supported by protocol",
			socketFix,
			socketWhy + pinned + " (docs/security.md)"},
		{"unix socket", "dial unix /run/user/1000/bus: connect: permission denied",
			unix + "; set sandbox = false in the entry if it needs one (docs/security.md)",
			unix + pinned + " (docs/security.md)"},
		{"proc", "ls: cannot open directory '/proc/self/fd': Permission denied",
			proc + `; set sandbox = false in the entry if it needs more (docs/security.md, "Limits")`,
			proc + pinned + ` (docs/security.md, "Limits")`},
		{"signal", "kill 4242: operation not permitted",
			signal + "; set sandbox = false in the entry if it must signal others",
			signal + pinned},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for mode, want := range map[Mode]string{ModeOn: tt.on, ModeRequire: tt.require} {
				d := (&Policy{Mode: mode}).Explain(ws, home, []byte(tt.out+"\n"))
				if d == nil || d.Fix != want {
					t.Errorf("mode %v: denial %+v, want fix %q", mode, d, want)
				}
			}
		})
	}
}

// rootFix is the fix of a create refused directly in the workspace root
// while what while names stays read-only: with the supervisor, which
// creates by name but makes no link and no move, else without.
func rootFix(while, since string) string {
	if supervised() {
		return `the sandbox creates entries directly in "." for the tool by name, but makes no link there and moves nothing between "." and a directory below it, since ` + since + `: copy the file instead (docs/security.md, "Limits")`
	}
	return `create it in a subdirectory: the sandbox cannot let a tool create entries directly in "." while ` + while + ` (docs/security.md, "Limits")`
}

// pyUDP and pyConnect are what python3 -c prints when the sandbox refuses
// socket.socket(AF_INET, SOCK_DGRAM) and socket.create_connection.
const (
	pyUDP = `Traceback (most recent call last):
  File "<string>", line 1, in <module>
  File "/usr/lib/python3.11/socket.py", line 232, in __init__
    _socket.socket.__init__(self, family, type, proto, fileno)
PermissionError: [Errno 13] Permission denied`
	pyConnect = `Traceback (most recent call last):
  File "<string>", line 1, in <module>
  File "/usr/lib/python3.11/socket.py", line 851, in create_connection
    raise exceptions[0]
  File "/usr/lib/python3.11/socket.py", line 836, in create_connection
    sock.connect(sa)
PermissionError: [Errno 13] Permission denied`
)
