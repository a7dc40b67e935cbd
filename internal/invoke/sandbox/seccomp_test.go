package sandbox_test

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/toolhost/toolhost/internal/invoke"
	"github.com/toolhost/toolhost/internal/invoke/sandbox"
	"github.com/toolhost/toolhost/tool"
)

// TestHostileSockets: under the sandbox a tool opens TCP and UDP sockets
// over IPv4 and IPv6 only. MPTCP, which Landlock's port rules do not
// see, is refused before it can connect to a port the rules deny, and so
// is every other family, type and protocol.
func TestHostileSockets(t *testing.T) {
	needLandlock(t)
	ln := listen(t, "tcp", "127.0.0.1:0")
	port := fmt.Sprint(ln.Addr().(*net.TCPAddr).Port)
	const (
		notFamily = "address family not supported by protocol"
		notProto  = "protocol not supported"
		nb, cx    = syscall.SOCK_NONBLOCK, syscall.SOCK_CLOEXEC
	)
	tests := []struct {
		name          string
		family, typ   int
		proto         int
		connect       bool
		denied        string // the error under the sandbox, "" for allowed
		what, fix     string // the denial the host reads from it
		needsUnconfed bool   // skip where the kernel lacks it unconfined too
	}{
		{"MPTCP to a port the rules deny", syscall.AF_INET, syscall.SOCK_STREAM, 262, true, notProto, socketWhat, socketFix, false},
		{"MPTCP over IPv6", syscall.AF_INET6, syscall.SOCK_STREAM | cx, 262, false, notProto, socketWhat, socketFix, false},
		{"SCTP", syscall.AF_INET, syscall.SOCK_STREAM, 132, false, notProto, socketWhat, socketFix, true},
		{"SCTP seqpacket", syscall.AF_INET, syscall.SOCK_SEQPACKET, 132, false, notProto, socketWhat, socketFix, true},
		{"ICMP ping", syscall.AF_INET, syscall.SOCK_DGRAM, syscall.IPPROTO_ICMP, false, notProto, socketWhat, socketFix, true},
		{"raw", syscall.AF_INET, syscall.SOCK_RAW, syscall.IPPROTO_TCP, false, notProto, socketWhat, socketFix, true},
		{"UDP-Lite", syscall.AF_INET, syscall.SOCK_DGRAM, 136, false, notProto, socketWhat, socketFix, true},
		{"packet", syscall.AF_PACKET, syscall.SOCK_DGRAM, 0x300, false, notFamily, socketWhat, socketFix, true},
		{"netlink", syscall.AF_NETLINK, syscall.SOCK_RAW, 0, false, notFamily, socketWhat, socketFix, false},
		{"unix", syscall.AF_UNIX, syscall.SOCK_STREAM, 0, false, "permission denied", "a unix socket", unixFix, false},
		{"TCP", syscall.AF_INET, syscall.SOCK_STREAM, 0, false, "", "", "", false},
		{"TCP nonblocking, close-on-exec", syscall.AF_INET6, syscall.SOCK_STREAM | nb | cx, syscall.IPPROTO_TCP, false, "", "", "", false},
		{"UDP, no net rule", syscall.AF_INET, syscall.SOCK_DGRAM, 0, false, "permission denied", "a UDP socket", udpFix, false},
		{"UDP over IPv6, no net rule", syscall.AF_INET6, syscall.SOCK_DGRAM | cx, syscall.IPPROTO_UDP, false, "permission denied", "a UDP socket", udpFix, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t)
			args := []string{fmt.Sprint(tt.family), fmt.Sprint(tt.typ), fmt.Sprint(tt.proto)}
			want := "opened"
			if tt.connect {
				args, want = append(args, port), "connected"
			}
			res, _, err := w.run(t, nil, "socket", args...)
			if err != nil {
				t.Fatal(err)
			}
			if string(res.Stdout) != want {
				if tt.needsUnconfed {
					t.Skipf("unconfined the socket fails too: %s", res.StderrTail)
				}
				t.Fatalf("unconfined: stdout %q, stderr %q: the test cannot fail", res.Stdout, res.StderrTail)
			}
			res, spec, err := w.run(t, &sandbox.Policy{Mode: sandbox.ModeOn}, "socket", args...)
			if err != nil {
				t.Fatal(err)
			}
			if tt.denied == "" {
				if string(res.Stdout) != want {
					t.Fatalf("refused: stdout %q, stderr %q", res.Stdout, res.StderrTail)
				}
				return
			}
			wantErr := fmt.Sprintf("socket(%s, %s, %d): %s\n", familyName(tt.family), typeName(tt.typ), tt.proto, tt.denied)
			if res.ExitCode != 1 || len(res.Stdout) != 0 || string(res.StderrTail) != wantErr {
				t.Fatalf("got exit %d, stdout %q, stderr %q; want stderr %q", res.ExitCode, res.Stdout, res.StderrTail, wantErr)
			}
			d := invoke.Denied(spec, w.ws, res)
			if d == nil || d.What != tt.what || d.Fix != tt.fix {
				t.Errorf("denial = %+v, want %q / %q", d, tt.what, tt.fix)
			}
		})
	}
}

// TestHostileUDP: Landlock does not see UDP. So where the plan grants no
// network (the profile without an allowing net rule, a probe) a UDP
// socket is refused and no datagram leaves; a rule that allows some
// network opens UDP, as before.
func TestHostileUDP(t *testing.T) {
	needLandlock(t)
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pc.Close() })
	port := uint16(pc.LocalAddr().(*net.UDPAddr).Port)
	got := make(chan string, 8)
	go func() {
		buf := make([]byte, 64)
		for {
			n, _, err := pc.ReadFrom(buf)
			if err != nil {
				return
			}
			got <- string(buf[:n])
		}
	}()
	other := uint16(1)
	for _, tt := range []struct {
		name string
		pol  *sandbox.Policy
		sent bool
	}{
		{"unconfined", nil, true},
		{"profile, no net rule", &sandbox.Policy{Mode: sandbox.ModeOn}, false},
		{"a net rule that denies", &sandbox.Policy{Access: tool.Access{Net: []tool.AccessNet{{Host: "*", Allow: false}}}}, false},
		{"a net rule that allows another port", &sandbox.Policy{Mode: sandbox.ModeOn, Access: tool.Access{Net: []tool.AccessNet{{Host: "127.0.0.1", Port: &other, Allow: true}}}}, true},
		{"a probe of an unconfined entry", (*sandbox.Policy)(nil).Probe(), false},
		{"a probe of a rule that allows", (&sandbox.Policy{Access: tool.Access{Net: []tool.AccessNet{{Host: "127.0.0.1", Port: &port, Allow: true}}}}).Probe(), false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t)
			res, spec, err := w.run(t, tt.pol, "udp-send", fmt.Sprint(port), tt.name)
			if err != nil {
				t.Fatal(err)
			}
			if tt.sent {
				if string(res.Stdout) != "sent" {
					t.Fatalf("stdout %q, stderr %q; want sent", res.Stdout, res.StderrTail)
				}
				if s := <-got; s != tt.name {
					t.Fatalf("the listener read %q, want %q", s, tt.name)
				}
				return
			}
			want := fmt.Sprintf("dial udp 127.0.0.1:%d: socket: permission denied\n", port)
			if res.ExitCode != 1 || string(res.StderrTail) != want {
				t.Fatalf("exit %d, stdout %q, stderr %q; want %q", res.ExitCode, res.Stdout, res.StderrTail, want)
			}
			d := invoke.Denied(spec, w.ws, res)
			wantWhat, wantFix := fmt.Sprintf("UDP to 127.0.0.1:%d", port), fmt.Sprintf(`access.net: add {host="127.0.0.1", port=%d, allow=true}`, port)
			if d == nil || d.What != wantWhat || d.Fix != wantFix {
				t.Errorf("denial = %+v, want %q / %q", d, wantWhat, wantFix)
			}
			select {
			case s := <-got:
				t.Fatalf("a datagram left: %q", s)
			case <-time.After(50 * time.Millisecond):
			}
		})
	}
}

const (
	udpFix     = "a sandboxed tool opens UDP sockets only when an access.net rule allows it some network (Landlock cannot filter UDP by port, so a datagram could go anywhere); add the rule the tool needs, {host=\"HOST\", port=PORT, allow=true}; set sandbox = false in the entry if it needs UDP (docs/security.md)"
	socketWhat = "a socket other than TCP or UDP over IPv4 or IPv6"
	socketFix  = "a sandboxed tool may open only TCP and UDP sockets over IPv4 and IPv6 (no MPTCP, SCTP, ICMP, raw, packet or netlink ones, which the network rules could not filter); set sandbox = false in the entry if it needs one (docs/security.md)"
)

// TestHostileMetadata: Landlock has no right for a file's mode, owner or
// extended attributes, so the seccomp filter refuses what would let
// another user in: a setuid or setgid bit however it is set, a
// world-writable mode (chmod 777 .git), an owner change, an extended
// attribute set or removed. A plain chmod and a plain create still work.
func TestHostileMetadata(t *testing.T) {
	needLandlock(t)
	const eperm, enosys = "operation not permitted", "function not implemented"
	tests := []struct {
		call   string
		path   string // relative to the workspace
		denied string // the error under the sandbox, "" for allowed
		mode   os.FileMode
	}{
		{"chmod-setuid", "src/a.txt", eperm, 0o600},
		{"chmod-world", ".git", eperm, os.ModeDir | 0o755},
		{"chmod-world", "src/a.txt", eperm, 0o600},
		{"fchmodat2-setuid", "src/a.txt", eperm, 0o600},
		{"chown", "src/a.txt", eperm, 0o600},
		{"setxattr", "src/a.txt", eperm, 0o600},
		{"removexattr", "src/a.txt", eperm, 0o600},
		{"create-setuid", "src/new", eperm, 0},
		{"openat2-setuid", "src/new", enosys, 0},
		{"mknod-setuid", "src/new", eperm, 0},
		{"chmod-plain", "src/a.txt", "", 0o750},
		{"create-plain", "src/new", "", 0o755},
	}
	for _, tt := range tests {
		t.Run(tt.call+" "+tt.path, func(t *testing.T) {
			for _, pol := range []*sandbox.Policy{nil, {Mode: sandbox.ModeOn}} {
				w := newWorld(t)
				path := filepath.Join(w.ws, tt.path)
				if tt.call == "removexattr" {
					if err := syscall.Setxattr(path, "user.toolhost", []byte("x"), 0); err != nil {
						t.Skipf("no user extended attributes here: %v", err)
					}
				}
				res, spec, err := w.run(t, pol, "meta", tt.call, path)
				if err != nil {
					t.Fatal(err)
				}
				if pol == nil || tt.denied == "" {
					if string(res.Stdout) != "changed" {
						t.Fatalf("%v: stdout %q, stderr %q", pol, res.Stdout, res.StderrTail)
					}
					continue
				}
				want := fmt.Sprintf("%s %s: %s\n", tt.call, path, tt.denied)
				if res.ExitCode != 1 || len(res.Stdout) != 0 || string(res.StderrTail) != want {
					t.Fatalf("got exit %d, stdout %q, stderr %q; want stderr %q", res.ExitCode, res.Stdout, res.StderrTail, want)
				}
				fi, err := os.Lstat(path)
				if tt.mode == 0 {
					if !errors.Is(err, os.ErrNotExist) {
						t.Errorf("%s was created: %v %v", tt.path, fi.Mode(), err)
					}
				} else if err != nil || fi.Mode() != tt.mode {
					t.Errorf("%s is %v (%v), want %v", tt.path, fi.Mode(), err, tt.mode)
				}
				if d := invoke.Denied(spec, w.ws, res); tt.denied == eperm && (d == nil || d.What != "a change of the mode, owner or extended attributes of "+tt.path || d.Fix != metaFix) {
					t.Errorf("denial = %+v", d)
				}
			}
		})
	}
}

const metaFix = "a sandboxed tool may not set a setuid, setgid or world-write bit, change an owner or set extended attributes, nor change a mode where no rule lets it update the file, as in .git and .config/toolhost (docs/security.md); make this change yourself"

// TestMPTCPUnderNetRules: an entry with access.net rules and no sandbox
// setting gets the filter too: MPTCP cannot pass by its port rules.
func TestMPTCPUnderNetRules(t *testing.T) {
	needLandlock(t)
	ln := listen(t, "tcp", "127.0.0.1:0")
	port := ln.Addr().(*net.TCPAddr).Port
	other := uint16(port + 1)
	pol := &sandbox.Policy{Access: tool.Access{Net: []tool.AccessNet{{Host: "127.0.0.1", Port: &other, Allow: true}}}}
	w := newWorld(t)
	args := []string{fmt.Sprint(syscall.AF_INET), fmt.Sprint(syscall.SOCK_STREAM), "262", fmt.Sprint(port)}
	for _, c := range []struct {
		pol  *sandbox.Policy
		want string
	}{{nil, "connected"}, {pol, ""}} {
		res, _, err := w.run(t, c.pol, "socket", args...)
		if err != nil || string(res.Stdout) != c.want {
			t.Fatalf("policy %v: %v, stdout %q, stderr %q; want %q", c.pol, err, res.Stdout, res.StderrTail, c.want)
		}
	}
}

// TestHostileKeyring: Landlock does not check the kernel's keyrings, so
// the filter refuses the key syscalls as a kernel without them would.
func TestHostileKeyring(t *testing.T) {
	needLandlock(t)
	if runtime.GOARCH != "amd64" {
		t.Skip("the keyring scenario is written for amd64")
	}
	w := newWorld(t)
	res, _, err := w.run(t, nil, "keyring")
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 0 {
		t.Skipf("unconfined, the keyring is out of reach too: %s", res.StderrTail)
	}
	res, _, err = w.run(t, &sandbox.Policy{Mode: sandbox.ModeOn}, "keyring")
	if err != nil {
		t.Fatal(err)
	}
	if want := "keyctl(KEYCTL_GET_KEYRING_ID): function not implemented\n"; res.ExitCode != 1 || len(res.Stdout) != 0 || string(res.StderrTail) != want {
		t.Fatalf("got exit %d, stdout %q, stderr %q; want stderr %q", res.ExitCode, res.Stdout, res.StderrTail, want)
	}
}
