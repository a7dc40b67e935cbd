package sandbox

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/toolhost/toolhost/internal/lazyre"
)

// Denial is an access the sandbox refused, recognised in what a confined
// tool printed: what was denied and the rule that would allow it.
type Denial struct {
	What string // "read of ~/.ssh/id_ed25519", "connect to 127.0.0.1:4567", "a signal to a process outside the sandbox"
	Fix  string // `access.fs: add {path="~/.ssh/id_ed25519", read=true}`; for a signal, what to do instead
	// List and Rule are the rule Fix adds, when it adds one: the list
	// ("access.fs", "access.net") and the rule as a TOML inline table.
	// First is what to do before, if anything ("touch ~/notes.txt").
	List, Rule, First string
}

// grant is the denial of what, whose fix is to add rule to list.
func grant(what, list, rule string) *Denial {
	return &Denial{What: what, Fix: list + ": add " + rule, List: list, Rule: rule}
}

// Error returns "the sandbox denied WHAT".
func (d *Denial) Error() string { return "the sandbox denied " + d.What }

var (
	deniedRe = lazyre.New(`(?i)permission denied|operation not permitted`)
	// epermRe is EPERM: Landlock refuses a path with EACCES, the seccomp
	// filter a file's metadata change with EPERM.
	epermRe = lazyre.New(`(?i)operation not permitted`)
	// tokenRe splits a message into words. GNU tools in a UTF-8 locale
	// quote a path in ‘’ (mkdir: cannot create directory ‘/x’).
	tokenRe  = lazyre.New(`[\s:'"` + "`" + `,;()\[\]{}‘’“”]+`)
	addrRe   = lazyre.New(`(?i)\b(connect|bind|dial|listen)\b[^\n]*?\[?([0-9a-z.:-]*?)\]?:([0-9]{1,5})\b`)
	signalRe = lazyre.New(`(?i)\b(kill|signal)`)
	// sockRe is the refusal of a socket the seccomp filter does not
	// allow (EAFNOSUPPORT, EPROTONOSUPPORT).
	sockRe = lazyre.New(`(?i)address family not supported|protocol not supported`)
	// udpRe is a refused UDP socket: Go's "dial udp 1.1.1.1:53: socket:
	// permission denied", or a socket(2) call naming SOCK_DGRAM.
	udpRe  = lazyre.New(`(?i)\budp\b|\bSOCK_DGRAM\b`)
	unixRe = lazyre.New(`(?i)\b(dial|connect|socket)\b[^\n]*\bunix\b|\bunix\b[^\n]*\b(dial|connect|socket)\b|\bAF_UNIX\b`)
	// nodeConnRe is node's refused connect ("connect EACCES
	// 104.16.0.35:443"), urlHostRe the host of a URL on the same line
	// (npm: "request to https://registry.npmjs.org/x failed, reason: …").
	// nodeModuleRe is node's failed require of a file by its path: under
	// the sandbox, a module outside the grants is "not found".
	nodeModuleRe = lazyre.New(`Cannot find module '(/[^']+)'`)
	// nodeUDPRe is node's refused UDP socket ("bind EACCES 0.0.0.0", the
	// stack in node:dgram): node makes the socket when it binds or sends.
	nodeUDPRe  = lazyre.New(`\b(?:bind|send) EACCES\b`)
	nodeConnRe = lazyre.New(`\b(connect|bind|listen) (?:EACCES|EPERM) \[?([0-9A-Fa-f.:]+?)\]?:([0-9]{1,5})\b`)
	urlHostRe  = lazyre.New(`\bhttps?://([A-Za-z0-9.-]+)`)
	// curlRe is curl's failed connect, which names no errno ("curl: (7)
	// Failed to connect to example.com port 443 after 1 ms: Couldn't
	// connect to server"): the sandbox's when no rule opens the port.
	curlRe = lazyre.New(`Failed to connect to \[?([0-9A-Za-z.:-]+?)\]? port ([0-9]{1,5})\b`)
	// pyDeniedRe is Python's PermissionError naming no path, as a refused
	// socket or connect raises it. The frames above it say which:
	// pyConnectRe a connect (with the address when the source line holds
	// it, pyAddrRe), pySocketRe the making of a socket.
	pyDeniedRe  = lazyre.New(`^\s*PermissionError: \[Errno 13\] Permission denied\s*$`)
	pyConnectRe = lazyre.New(`\.connect(?:_ex)?\(|\bcreate_connection\b`)
	pyAddrRe    = lazyre.New(`\(\s*['"]([0-9A-Za-z.:-]+)['"]\s*,\s*([0-9]{1,5})\s*\)`)
	pySocketRe  = lazyre.New(`\bsocket\.socket\b|socket\.py", line [0-9]+, in __init__`)
	// devTCPRe is bash's /dev/tcp/HOST/PORT, a connection, not a file;
	// devUDPRe its /dev/udp/HOST/PORT, a datagram.
	devTCPRe = lazyre.New(`/dev/tcp/([0-9A-Za-z.:-]+)/([0-9]{1,5})\b`)
	devUDPRe = lazyre.New(`/dev/udp/([0-9A-Za-z.:-]+)/([0-9]{1,5})\b`)
)

// Explain looks in out of a process that ran under the policy for the
// first refusal the sandbox explains. out is the stderr tail, then stdout.
// A refusal is a path outside the grants with EACCES or EPERM, a TCP
// connect or bind to a port not granted, or a signal outside the sandbox. It returns nil when
// it finds none. root is the workspace, home the home directory: paths are
// named as a rule would write them.
func (p *Policy) Explain(root, home string, out ...[]byte) *Denial {
	if !p.Enforced() {
		return nil
	}
	rootReal := realPath(root)
	filtered := p.profile() || len(p.FS)+len(p.Net) > 0 // the seccomp filter applies
	for _, o := range out {
		lines := bytes.Split(o, []byte("\n"))
		for i, line := range lines {
			if filtered && sockRe().Match(line) {
				return &Denial{What: "a socket other than TCP or UDP over IPv4 or IPv6", Fix: socketWhy + p.unconfined("needs one") + " (docs/security.md)"}
			}
			if nodeUDPRe().Match(line) && p.filter()&filterNoUDP != 0 && bytes.Contains(o, []byte("node:dgram")) {
				return &Denial{What: "a UDP socket", Fix: udpWhy + p.unconfined("needs UDP") + " (docs/security.md)"}
			}
			if m := nodeConnRe().FindSubmatch(line); m != nil && (len(p.Net) > 0 || p.profile()) {
				port, _ := strconv.Atoi(string(m[3]))
				host := string(m[2])
				if u := urlHostRe().FindSubmatch(line); u != nil {
					host = string(u[1]) // the name the tool asked for, not one of its addresses
				}
				if string(m[1]) != "connect" {
					return grant(fmt.Sprintf("listening on TCP port %d", port), "access.net", fmt.Sprintf(`{host="%s", port=%d, allow=true, bind=true}`, host, port))
				}
				return grant(fmt.Sprintf("a TCP connection to %s:%d", host, port), "access.net", fmt.Sprintf(`{host="%s", port=%d, allow=true}`, host, port))
			}
			if m := curlRe().FindSubmatch(line); m != nil && (len(p.Net) > 0 || p.profile()) {
				port, _ := strconv.Atoi(string(m[2]))
				if port <= 65535 && !p.opens(port) {
					return grant(fmt.Sprintf("a TCP connection to %s:%d", m[1], port), "access.net", fmt.Sprintf(`{host="%s", port=%d, allow=true}`, m[1], port))
				}
			}
			if m := nodeModuleRe().FindSubmatch(line); m != nil && len(p.Rules()) > 0 {
				if dir := nodeModules(string(m[1])); dir != "" {
					name := ruleName(dir, rootReal, home)
					return grant("read of "+ruleName(string(m[1]), rootReal, home), "access.fs", fmt.Sprintf(`{path="%s", read=true, execute=true}`, name))
				}
			}
			if !deniedRe().Match(line) {
				continue
			}
			if pyDeniedRe().Match(line) && filtered {
				if d := p.pythonSocket(traceback(lines[:i])); d != nil {
					return d
				}
			}
			s := string(line)
			if m := devTCPRe().FindStringSubmatch(s); m != nil && (len(p.Net) > 0 || p.profile()) {
				port, _ := strconv.Atoi(m[2])
				return grant(fmt.Sprintf("a TCP connection to %s:%d", m[1], port), "access.net", fmt.Sprintf(`{host="%s", port=%d, allow=true}`, m[1], port))
			}
			if udpRe().MatchString(s) && p.filter()&filterNoUDP != 0 {
				m := addrRe().FindStringSubmatch(s)
				if m == nil || m[2] == "" {
					m = devUDPRe().FindStringSubmatch(s)
				}
				if m != nil && m[len(m)-2] != "" {
					host := m[len(m)-2]
					port, _ := strconv.Atoi(m[len(m)-1])
					return grant(fmt.Sprintf("UDP to %s:%d", host, port), "access.net", fmt.Sprintf(`{host="%s", port=%d, allow=true}`, host, port))
				}
				return &Denial{What: "a UDP socket", Fix: udpWhy + p.unconfined("needs UDP") + " (docs/security.md)"}
			}
			if m := addrRe().FindStringSubmatch(s); m != nil && (len(p.Net) > 0 || p.profile()) {
				port, _ := strconv.Atoi(m[3])
				host := m[2]
				if host == "" {
					host = "localhost"
				}
				if strings.EqualFold(m[1], "bind") || strings.EqualFold(m[1], "listen") {
					return grant(fmt.Sprintf("listening on TCP port %d", port), "access.net", fmt.Sprintf(`{host="%s", port=%d, allow=true, bind=true}`, host, port))
				}
				return grant(fmt.Sprintf("a TCP connection to %s:%d", host, port), "access.net", fmt.Sprintf(`{host="%s", port=%d, allow=true}`, host, port))
			}
			if unixRe().MatchString(s) && filtered {
				return &Denial{What: "a unix socket", Fix: unixWhy + p.unconfined("needs one") + " (docs/security.md)"}
			}
			if paths := pathsIn(s, rootReal); len(paths) > 0 && filtered && epermRe().MatchString(s) && !signalRe().MatchString(s) {
				return &Denial{What: fmt.Sprintf("a change of the mode, owner or extended attributes of %s", ruleName(pickPath(paths), rootReal, home)), Fix: metaFix}
			}
			if paths := pathsIn(s, rootReal); len(paths) > 0 && len(p.Rules()) > 0 {
				path := pickPath(paths)
				// The kernel checks where a symbolic link leads. But /proc's
				// links (/proc/self, /dev/fd) would resolve here in the
				// host, to the host's own pid.
				if real, err := filepath.EvalSymlinks(path); err == nil && !procPath(path) {
					path = real
				}
				capability := p.needed(path, rootReal, home, strings.ToLower(s))
				if why := withheld(rootReal, home); why != "" && p.profile() && within(rootReal, path) {
					return &Denial{What: fmt.Sprintf("%s of %s", capability, ruleName(path, rootReal, home)),
						Fix: why + ": the default profile grants nothing there; run toolhost in a project directory, or give --root DIR (docs/security.md, \"Limits\")"}
				}
				if toolhostDir(path) != "" {
					return &Denial{What: fmt.Sprintf("%s of %s", capability, ruleName(path, rootReal, home)), Fix: ownFix}
				}
				if procPath(path) {
					return &Denial{What: fmt.Sprintf("%s of %s", capability, path),
						Fix: `a sandboxed tool gets no /proc, not even its own /proc/self: it reads its standard streams as /dev/stdin or /dev/fd/N, which work` + p.unconfined("needs more") + ` (docs/security.md, "Limits")`}
				}
				if capability != "read" && capability != "execute" && p.profile() && guarded(path, rootReal) {
					return &Denial{What: fmt.Sprintf("%s of %s", capability, ruleName(path, rootReal, home)), Fix: guardedFix}
				}
				// The kernel checks creating and deleting an entry on its
				// directory: the rule that allows it is the directory's.
				at := path
				if capability == "create" || capability == "delete" {
					at = filepath.Dir(path)
				}
				if capability == "create" {
					at = existing(at)
				}
				if capability == "create" || capability == "delete" {
					under, exists := p.narrower(at, rootReal, home, capability)
					if under != "" && capability == "create" && !within(rootReal, at) && within(at, rootReal) {
						// A file beside the workspace, in a directory that
						// holds it: no rule can let the tool create it, but
						// one can let it write the file once it exists.
						name := ruleName(path, rootReal, home)
						d := grant(fmt.Sprintf("create of %s", name), "access.fs", fmt.Sprintf(`{path="%s", read=true, update=true}`, name))
						d.First = "touch " + shellName(name)
						d.Fix = fmt.Sprintf(`make the file first (%s), then %s: the sandbox cannot let a tool create entries directly in %q, which holds the workspace (docs/security.md, "Limits")`,
							d.First, d.Fix, ruleName(at, rootReal, home))
						return d
					}
					if under != "" {
						// A rule's path that does not exist yet is kept
						// from being created: naming it would point at
						// nothing the person can see.
						while := fmt.Sprintf("%q below it may not", ruleName(under, rootReal, home))
						if !exists {
							while = "it keeps paths below it read-only that a tool could otherwise " + capability
						}
						need := map[string]uint64{"create": accCreate, "delete": accDelete}[capability]
						if at == rootReal && supervised() && p.granted(at, rootReal, home)&need == need {
							name := ruleName(path, rootReal, home)
							held, _, _ := strings.Cut(ruleName(under, rootReal, home), "/")
							if strings.EqualFold(name, held) || strings.EqualFold(name, ".git") || strings.EqualFold(name, ".config") {
								// A name the supervisor never acts on.
								return &Denial{What: fmt.Sprintf("%s of %s", capability, name),
									Fix: fmt.Sprintf(`the sandbox never creates, renames or deletes %q in the workspace root for a tool, since it holds or is what the profile keeps read-only; make this change yourself (docs/security.md, "Limits")`, name)}
							}
							// The supervisor makes the call by name, but
							// neither a link nor a move across directories.
							since := fmt.Sprintf("%q below it may not be written", ruleName(under, rootReal, home))
							if !exists {
								since = "it keeps paths below it read-only"
							}
							return &Denial{What: fmt.Sprintf("%s of %s", capability, ruleName(path, rootReal, home)),
								Fix: fmt.Sprintf(`the sandbox %ss entries directly in %q for the tool by name, but makes no link there and moves nothing between %q and a directory below it, since %s: copy the file instead (docs/security.md, "Limits")`,
									capability, ruleName(at, rootReal, home), ruleName(at, rootReal, home), since)}
						}
						return &Denial{What: fmt.Sprintf("%s of %s", capability, ruleName(path, rootReal, home)),
							Fix: fmt.Sprintf(`%s it in a subdirectory: the sandbox cannot let a tool %s entries directly in %q while %s (docs/security.md, "Limits")`,
								capability, capability, ruleName(at, rootReal, home), while)}
					}
				}
				// A rule applies in full: keep what the place has, add what
				// was missing. A file created is then written: its rule
				// lets it be updated too, else the fix would move the
				// refusal to the write.
				add := capability
				if capability == "create" {
					add = "create+update"
				}
				if capability == "execute" && script(path) {
					add = "read+execute" // its interpreter opens it to read it
				}
				return grant(fmt.Sprintf("%s of %s", capability, ruleName(path, rootReal, home)), "access.fs",
					fmt.Sprintf(`{path="%s", %s}`, ruleName(at, rootReal, home), capabilities(p.granted(at, rootReal, home), add)))
			}
			if signalRe().MatchString(s) {
				return &Denial{What: "a signal to a process outside the sandbox",
					Fix: "a sandboxed tool may signal only the processes it started" + p.unconfined("must signal others")}
			}
		}
	}
	return nil
}

// pythonSocket explains Python's PermissionError that names no path,
// from the frames of its traceback: a refused connect, or a
// refused socket, which the filter allows only over TCP when no rule
// allows some network.
func (p *Policy) pythonSocket(frames [][]byte) *Denial {
	src := bytes.Join(frames, []byte("\n"))
	switch {
	case pyConnectRe().Match(src) && len(p.Net) == 0 && !p.profile():
		return nil // the plan leaves TCP alone
	case pyConnectRe().Match(src):
		if m := pyAddrRe().FindSubmatch(src); m != nil {
			port, _ := strconv.Atoi(string(m[2]))
			return grant(fmt.Sprintf("a TCP connection to %s:%d", m[1], port), "access.net", fmt.Sprintf(`{host="%s", port=%d, allow=true}`, m[1], port))
		}
		return &Denial{What: "a TCP connection", Fix: `add an access.net rule for the host and port the tool connects to, {host="HOST", port=PORT, allow=true}` + p.unconfined("needs the network") + " (docs/security.md)"}
	case !pySocketRe().Match(src):
		return nil
	case bytes.Contains(src, []byte("AF_UNIX")):
		return &Denial{What: "a unix socket", Fix: unixWhy + p.unconfined("needs one") + " (docs/security.md)"}
	case p.filter()&filterNoUDP == 0:
		return nil
	case udpRe().Match(src):
		return &Denial{What: "a UDP socket", Fix: udpWhy + p.unconfined("needs UDP") + " (docs/security.md)"}
	}
	return &Denial{What: "a UDP or unix socket", Fix: udpWhy + "; no rule allows a unix socket" + p.unconfined("needs one") + " (docs/security.md)"}
}

// traceback returns the frames of the Python traceback that above ends:
// the lines after its last "Traceback" line, at most 50.
func traceback(above [][]byte) [][]byte {
	from := max(0, len(above)-50)
	for i := len(above) - 1; i >= from; i-- {
		if bytes.HasPrefix(above[i], []byte("Traceback ")) {
			return above[i+1:]
		}
	}
	return above[from:]
}

// unixWhy says why the seccomp filter refused a unix socket.
const unixWhy = "a sandboxed tool may not open unix sockets, since Landlock does not check connecting to one (the session bus, ssh-agent, docker.sock)"

// socketWhy says why the seccomp filter refused a socket, socketFix is
// the whole fix for an entry that does not require the sandbox.
const (
	socketWhy = "a sandboxed tool may open only TCP and UDP sockets over IPv4 and IPv6 (no MPTCP, SCTP, ICMP, raw, packet or netlink ones, which the network rules could not filter)"
	socketFix = socketWhy + "; set sandbox = false in the entry if it needs one (docs/security.md)"
)

// requireFix ends the fix of a refusal no rule lifts, for an entry that
// says sandbox = "require": turning the sandbox off is not its fix.
const requireFix = `; no rule grants this, and the entry says sandbox = "require", so the tool runs confined or not at all`

// unconfined ends the fix of a refusal no rule lifts: the entry may turn
// the sandbox off when the tool needs what it refused (need: "needs
// one"), unless it requires the sandbox.
func (p *Policy) unconfined(need string) string {
	if p.Mode == ModeRequire {
		return requireFix
	}
	return "; set sandbox = false in the entry if it " + need
}

// udpWhy says why the seccomp filter refused a UDP socket.
const udpWhy = "a sandboxed tool opens UDP sockets only when an access.net rule allows it some network (Landlock cannot filter UDP by port, so a datagram could go anywhere); add the rule the tool needs, {host=\"HOST\", port=PORT, allow=true}"

// metaFix is the fix of a metadata change the seccomp filter refuses.
const metaFix = "a sandboxed tool may not set a setuid, setgid or world-write bit, change an owner or set extended attributes, nor change a mode where no rule lets it update the file, as in .git and .config/toolhost (docs/security.md); make this change yourself"

// ownFix is the fix of an access to toolhost's own directories.
const ownFix = "toolhost's own files (its configuration, trust records, state and cache) are out of every sandboxed tool's reach, whatever the rules say; make this change yourself (docs/security.md)"

// guardedFix is the fix of a write the default profile refuses in .git or
// .config/toolhost: not a rule to add, which would lift the protection.
const guardedFix = `the default profile keeps .git and .config/toolhost read-only on purpose: a tool that could write them could rewrite history or register commands the next start runs; make this change yourself (docs/security.md)`

// guarded reports whether path is in the workspace's .git or
// .config/toolhost, which the default profile keeps read-only.
func guarded(path, rootReal string) bool {
	for _, d := range []string{".git", ".config/toolhost"} {
		if within(filepath.Join(rootReal, d), path) {
			return true
		}
	}
	return false
}

// opens reports whether an allowed net rule opens the TCP port.
func (p *Policy) opens(port int) bool {
	for _, r := range p.Net {
		if r.Allow && slices.Contains(ports(r), uint16(port)) {
			return true
		}
	}
	return false
}

// existing returns dir, or its nearest ancestor that exists when dir is
// to be made ("sub/dir" of "sub/dir/notes.txt"): the kernel checks
// making the first missing one on the one that exists. dir itself when
// none below the file system's root does.
func existing(dir string) string {
	for d := dir; d != filepath.Dir(d); d = filepath.Dir(d) {
		if _, err := os.Lstat(d); err == nil {
			return d
		}
	}
	return dir
}

// shellName writes a rule's path for a shell: "~/" left unquoted, the
// rest quoted when it holds a character the shell would read.
func shellName(name string) string {
	rest, home := strings.CutPrefix(name, "~/")
	if strings.ContainsAny(rest, " \t'\"\\$`*?[]{}()<>|&;!#") {
		rest = "'" + strings.ReplaceAll(rest, "'", `'\''`) + "'"
	}
	if home {
		return "~/" + rest
	}
	return rest
}

// script reports whether the file at path starts with "#!": the kernel
// starts its interpreter, which then reads the file by its path.
// A tool names the path: what is not a regular file is not read, and the
// open does not wait on a FIFO.
func script(path string) bool {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return false
	}
	var b [2]byte
	n, _ := f.Read(b[:])
	return n == 2 && string(b[:]) == "#!"
}

// procPath reports whether path is in /proc, or in /dev/fd (a link to
// /proc/self/fd).
func procPath(path string) bool {
	for _, d := range []string{"/proc", "/dev/fd"} {
		if path == d || strings.HasPrefix(path, d+"/") {
			return true
		}
	}
	return false
}

// pathsIn returns the words of line that look like paths (they hold a
// slash and are not URLs, or are a file name with an extension), absolute:
// a relative one is taken from the workspace root, where the tool runs.
func pathsIn(line, rootReal string) []string {
	var out []string
	for _, w := range tokenRe().Split(line, -1) {
		// a path has a slash, or is a file name with an extension
		// ("notes.txt") directly in the workspace root
		name := strings.Contains(w, ".") && !strings.HasSuffix(w, ".") && !strings.HasPrefix(w, ".")
		if !name && !strings.Contains(w, "/") && w != "" {
			_, err := os.Lstat(filepath.Join(rootReal, w)) // "wc: leak: Permission denied": a bare name in the root
			name = err == nil
		}
		if !strings.Contains(w, "/") && !name || strings.HasPrefix(w, "//") {
			continue
		}
		if !filepath.IsAbs(w) {
			w = filepath.Join(rootReal, w)
		}
		out = append(out, w)
	}
	return out
}

// pickPath prefers the path that exists or whose directory does: a
// message may name a program ("/bin/sh: 1: cannot create /x: Permission
// denied") before the path at fault.
func pickPath(paths []string) string {
	for i := len(paths) - 1; i >= 0; i-- {
		if _, err := os.Lstat(filepath.Dir(paths[i])); err == nil {
			return filepath.Clean(paths[i])
		}
	}
	return filepath.Clean(paths[len(paths)-1])
}

// needed guesses the capability a denied operation on path lacked: the
// operation the message names, else create of a missing file, else read
// when the rules do not grant it, else update.
func (p *Policy) needed(path, rootReal, home, msg string) string {
	bits := p.granted(path, rootReal, home)
	switch {
	case strings.Contains(msg, "mkdir") || strings.Contains(msg, "cannot create") || strings.Contains(msg, "create"):
		if _, err := os.Lstat(path); err != nil || bits&accUpdate != 0 {
			return "create"
		}
		return "update"
	case strings.Contains(msg, "remove") || strings.Contains(msg, "unlink") || strings.Contains(msg, "rmdir") || strings.Contains(msg, "delete"):
		return "delete"
	case strings.Contains(msg, "exec"):
		return "execute"
	}
	if _, err := os.Lstat(path); err != nil {
		return "create" // opening a missing file fails with ENOENT, unless it creates it
	}
	if bits&accRead == 0 {
		return "read"
	}
	return "update"
}

// capabilities writes the capabilities of bits plus extra ("create",
// "create+update") as TOML keys, in JP's order, with write for
// create+update+delete: "read=true, create=true".
func capabilities(bits uint64, extra string) string {
	has := map[string]bool{}
	for _, c := range strings.Split(extra, "+") {
		has[c] = true
	}
	for name, b := range map[string]uint64{"read": accRead, "create": accCreate, "update": accUpdate, "delete": accDelete, "execute": accExecute} {
		if bits&b == b {
			has[name] = true
		}
	}
	order := []string{"read", "create", "update", "delete", "execute"}
	if has["create"] && has["update"] && has["delete"] {
		order = []string{"read", "write", "execute"}
		has["write"] = true
	}
	var out []string
	for _, name := range order {
		if has[name] {
			out = append(out, name+"=true")
		}
	}
	return strings.Join(out, ", ")
}

// narrower returns a rule's path strictly beneath dir that does not grant
// capability (Landlock's rights on dir would cover it too), "" when none,
// preferring one that exists; exists reports whether it does.
func (p *Policy) narrower(dir, rootReal, home, capability string) (path string, exists bool) {
	need := map[string]uint64{"create": accCreate, "delete": accDelete}[capability]
	for _, r := range p.enforcedRules(rootReal, home) {
		a := absRule(r.Path, rootReal, home)
		if a != "" && a != dir && within(dir, a) && ruleRights(r)&need != need {
			if _, err := os.Lstat(a); err == nil {
				return a, true
			}
			if path == "" {
				path = a
			}
		}
	}
	return path, false
}

// granted returns the rights the most specific rule gives path.
func (p *Policy) granted(path, rootReal, home string) uint64 {
	if toolhostDir(path) != "" {
		return 0
	}
	best, bits := -1, uint64(0)
	for _, r := range p.enforcedRules(rootReal, home) {
		a := absRule(r.Path, rootReal, home)
		if a == "" || !within(a, path) {
			continue
		}
		if n := len(a); n >= best {
			best, bits = n, ruleRights(r)
		}
	}
	return bits
}

// ruleName writes path as a rule would: relative to the workspace, under
// "~/", or absolute.
func ruleName(path, rootReal, home string) string {
	if within(rootReal, path) {
		rel, _ := filepath.Rel(rootReal, path)
		return filepath.ToSlash(rel)
	}
	if home != "" {
		h := realPath(home)
		if path == h {
			return "~"
		}
		if within(h, path) {
			rel, _ := filepath.Rel(h, path)
			return "~/" + filepath.ToSlash(rel)
		}
	}
	return path
}

// nodeModules returns the directory to grant for a module node could not
// find at path: the node_modules directory it is in, else its own
// directory, "" when the file is not there (the sandbox is not why).
func nodeModules(path string) string {
	if _, err := os.Stat(path); err != nil {
		return ""
	}
	if i := strings.LastIndex(path, "/node_modules/"); i >= 0 {
		return path[:i+len("/node_modules")]
	}
	return filepath.Dir(path)
}
