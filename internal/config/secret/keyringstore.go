package secret

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"
)

// This file writes and removes keyring items through the Secret Service's
// client. It does so for the values toolhost obtains itself, the OAuth
// tokens:
//
//	secret-tool store --label=toolhost service toolhost account NAME   (the value on stdin)
//	secret-tool clear service toolhost account NAME
//
// Only on Linux. macOS's security takes a new password on its command
// line (-w VALUE), where other processes can read it.

// KeyringWritable reports whether toolhost can write the keyring here.
// That needs Linux, secret-tool on PATH, and a session bus to reach the
// Secret Service through. Without one, callers keep values in owner-only
// files.
func KeyringWritable() bool {
	if runtime.GOOS != "linux" || os.Getenv("DBUS_SESSION_BUS_ADDRESS") == "" {
		return false
	}
	_, err := exec.LookPath("secret-tool")
	return err == nil
}

// StoreKeyring writes value as the item of account name (service
// "toolhost"), replacing any. The value goes on the client's stdin, never
// its command line. Errors name the item, never the value.
func StoreKeyring(name, value string) error {
	return runKeyring(name, value, true, "store", "--label="+KeyringService, "service", KeyringService, "account", name)
}

// DeleteKeyring removes the item of account name. A missing item is no
// error.
func DeleteKeyring(name string) error {
	return runKeyring(name, "", false, "clear", "service", KeyringService, "account", name)
}

// ReadKeyring reads the item of account name, as "keyring:NAME" does.
func ReadKeyring(name string) (Value, error) {
	return Ref{Kind: KindKeyring, Name: name}.Resolve(nil)
}

// runKeyring runs secret-tool with args. With hasValue, value goes on its
// stdin. It quotes its stderr tail in an error, with value replaced.
func runKeyring(name, value string, hasValue bool, args ...string) error {
	if strings.HasPrefix(name, "-") {
		return fmt.Errorf("keyring item %q: %w: a name does not start with \"-\"", name, ErrSyntax)
	}
	path, err := exec.LookPath("secret-tool")
	if err != nil {
		return fmt.Errorf("keyring item %q: %w: secret-tool is not on PATH", name, ErrNoKeyring)
	}
	ctx, cancel := context.WithTimeout(context.Background(), DefaultKeyringTimeout)
	defer cancel()
	var stderr tailBuffer
	stderr.max = keyringTail
	cmd := exec.CommandContext(ctx, path, args...)
	if hasValue {
		cmd.Stdin = strings.NewReader(value)
	}
	cmd.Stderr = &stderr
	cmd.WaitDelay = time.Second
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("keyring item %q: %w: secret-tool %s did not answer within %s (a keyring waiting to be unlocked?)", name, ErrKeyring, args[0], DefaultKeyringTimeout)
		}
		return fmt.Errorf("keyring item %q: %w: secret-tool %s: %v%s", name, ErrKeyring, args[0], err, quoteTail(stderr.b.Bytes(), []byte(value)))
	}
	return nil
}
