package cli

import (
	"maps"
	"path/filepath"

	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/config/trust"
)

// trustedBefore returns the sums of the workspace files at or above root,
// and whether the store trusts them as they are. A command that edits a
// workspace file for the person (add, import, edit, remove) calls it
// before it writes, and [keepTrusted] after.
func trustedBefore(root string) (map[string]string, bool) {
	ws, err := config.FindWorkspace(root)
	if err != nil || ws == nil {
		return nil, false
	}
	sums := ws.Sums()
	return sums, trust.Default().Verify(ws.Root, sums) == nil
}

// keepTrusted keeps a trusted workspace trusted after a command the person
// typed wrote file, one of its files. They trust what they asked for, and
// the rest is what they trusted before. wrote is the bytes the command
// wrote. Those are trusted, never a read of the file after the write,
// which a program could have changed meanwhile. A nil wrote means the
// command removed bytes (remove). The file as it is now is then what is
// left of it, and a file the command removed is dropped from the record.
// A workspace the command created is trusted too: file is its only file,
// and there was none before. Any other workspace stays untrusted, and the
// returned line says so. The line is "" when the workspace is trusted.
func keepTrusted(before map[string]string, trusted bool, file string, wrote []byte) string {
	const untrusted = "the workspace's configuration is not trusted, so it does not run yet: review it, then run toolhost trust"
	ws, err := config.FindWorkspace(filepath.Dir(filepath.Dir(filepath.Dir(file))))
	switch {
	case err != nil:
		return untrusted
	case ws == nil || ws.Dir != filepath.Dir(file):
		return "" // the command removed the workspace's last file: nothing left to run
	}
	after := ws.Sums()
	name := filepath.Base(file)
	if !trusted && (len(before) > 0 || len(after) != 1) {
		return untrusted // someone else's files: the person has not reviewed them
	}
	want := maps.Clone(before)
	if want == nil {
		want = map[string]string{}
	}
	switch sum, ok := after[name]; {
	case wrote != nil:
		want[name] = trust.Sum(wrote)
	case ok:
		want[name] = sum
	default:
		delete(want, name)
	}
	if !maps.Equal(want, after) {
		return untrusted // this file or another changed meanwhile
	}
	if err := trustKeeping(ws.Root, want); err != nil {
		return "could not record trust: " + err.Error()
	}
	return ""
}
