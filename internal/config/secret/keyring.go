package secret

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"
)

// This file reads a "keyring:NAME" reference through the OS keyring's own
// command-line client. So toolhost needs no D-Bus or Security framework
// binding (docs/dependencies.md "Keyring through its CLI"):
//
//	Linux (Secret Service: GNOME Keyring, KWallet):
//	    secret-tool lookup service toolhost account NAME
//	macOS (login keychain):
//	    security find-generic-password -s toolhost -a NAME -w
//
// The client is exec'd directly, with no shell, and found on PATH. Its
// stdin is empty (/dev/null), and it runs with a timeout. Its stdout, the
// value, is read without one trailing line break. Only a tail of its
// stderr is kept for an error, with the value, if any, replaced.
// Elsewhere a keyring reference is refused with [ErrNoKeyring].

// KeyringService is the service under which toolhost reads its keyring
// items. The item of "keyring:NAME" is service "toolhost", account NAME.
const KeyringService = "toolhost"

// DefaultKeyringTimeout bounds a keyring lookup when [Options] gives none.
// A keyring that waits to be unlocked (a prompt nobody answers) ends with
// [ErrKeyring] then.
const DefaultKeyringTimeout = 10 * time.Second

// ErrKeyring reports a keyring client that ran and gave no value. Causes
// are no such item, a locked keyring, no Secret Service on the session
// bus, or a timeout.
var ErrKeyring = errors.New("keyring lookup failed")

// keyringTail bounds the stderr a keyring error quotes.
const keyringTail = 512

// keyringClient is how one system's keyring is read and written.
type keyringClient struct {
	tool  string                     // the executable, found on PATH
	args  func(name string) []string // the lookup's arguments
	store func(name string) string   // the command that stores the item, for the fix
	pkg   string                     // where the tool comes from, for the fix
}

// keyringClients are the clients by GOOS.
var keyringClients = map[string]keyringClient{
	"linux": {
		tool: "secret-tool",
		args: func(n string) []string { return []string{"lookup", "service", KeyringService, "account", n} },
		store: func(n string) string {
			return "secret-tool store --label=" + KeyringService + " service " + KeyringService + " account " + n
		},
		pkg: "install libsecret-tools (the Secret Service's client: GNOME Keyring, KWallet)",
	},
	"darwin": {
		tool: "security",
		args: func(n string) []string { return []string{"find-generic-password", "-s", KeyringService, "-a", n, "-w"} },
		store: func(n string) string {
			return "security add-generic-password -U -s " + KeyringService + " -a " + n + " -w"
		},
		pkg: "it comes with macOS in /usr/bin; put /usr/bin on toolhost's PATH",
	},
}

// alternatives is the end of every keyring error. It names the kinds that
// need no keyring.
const alternatives = `keep the secret in an owner-only file ({ secret = "file:PATH" }, chmod 600 PATH) or in a variable of toolhost's environment ({ secret = "env:VAR" })`

// readKeyring reads r (a keyring reference) on the system goos.
func (r Ref) readKeyring(goos string, timeout time.Duration) (Value, error) {
	kc, ok := keyringClients[goos]
	if !ok {
		return Value{}, fmt.Errorf("secret %q: %w: toolhost reads the OS keyring on Linux (secret-tool) and macOS (security), not on %s; %s", r.String(), ErrNoKeyring, goos, alternatives)
	}
	path, err := exec.LookPath(kc.tool)
	if err != nil {
		return Value{}, fmt.Errorf("secret %q: %w: %s is not on PATH: %s, then store the value with %s (it asks for it); or %s", r.String(), ErrNoKeyring, kc.tool, kc.pkg, kc.store(r.Name), alternatives)
	}
	if timeout <= 0 {
		timeout = DefaultKeyringTimeout
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	var stdout, stderr tailBuffer
	stdout.max, stdout.head, stderr.max = maxFile, true, keyringTail
	args := kc.args(r.Name)
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Stdin = nil // /dev/null: the client never waits for input
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = time.Second // a child keeping the pipes open
	err = cmd.Run()
	out := stdout.b.Bytes()
	lookup := kc.tool + " " + strings.Join(args, " ")
	switch {
	case err != nil && ctx.Err() != nil:
		return Value{}, fmt.Errorf("secret %q: %w: %s did not answer within %s (a keyring waiting to be unlocked?): unlock the keyring and call again, or %s", r.String(), ErrKeyring, lookup, timeout, alternatives)
	case err != nil:
		return Value{}, fmt.Errorf("secret %q: %w: %s: %v%s: if the item is missing, store it with %s (it asks for the value); or %s", r.String(), ErrKeyring, lookup, err, quoteTail(stderr.b.Bytes(), out), kc.store(r.Name), alternatives)
	case stdout.over:
		return Value{}, fmt.Errorf("secret %q: %w: %s answered more than %d KiB, too large for a secret", r.String(), ErrKeyring, lookup, maxFile>>10)
	}
	s := string(out)
	if t, ok := strings.CutSuffix(s, "\n"); ok {
		s = strings.TrimSuffix(t, "\r")
	}
	return Value{v: s}, nil
}

// quoteTail returns "; stderr: …" quoting the trimmed stderr tail. out is
// replaced in it. out is what the client wrote on stdout, a value
// perhaps. quoteTail returns "" when the tail is empty.
func quoteTail(tail, out []byte) string {
	if v := bytes.TrimSpace(out); len(v) > 0 {
		tail = bytes.ReplaceAll(tail, v, []byte("[redacted]"))
	}
	tail = bytes.TrimSpace(tail)
	if len(tail) == 0 {
		return ""
	}
	return fmt.Sprintf("; stderr: %q", tail)
}

// tailBuffer keeps at most max bytes. With head set it keeps the first
// ones, for stdout, and over says more came. Else it keeps the last ones,
// for stderr.
type tailBuffer struct {
	b    bytes.Buffer
	max  int
	head bool
	over bool
}

// Write keeps what the buffer's kind keeps, and never fails.
func (t *tailBuffer) Write(p []byte) (int, error) {
	n := len(p)
	if t.head {
		if room := t.max - t.b.Len(); room < len(p) {
			p, t.over = p[:max(room, 0)], true
		}
		t.b.Write(p)
		return n, nil
	}
	t.b.Write(p)
	if over := t.b.Len() - t.max; over > 0 {
		t.b.Next(over)
	}
	return n, nil
}
