// Package trust records which workspaces a person trusts to run their
// configuration, like direnv's allow: a workspace's .config/toolhost/*.toml
// files name commands that toolhost runs. So a freshly cloned repository
// (or a file a tool wrote) must not run anything until a person says so.
//
//	store := trust.Default() // $XDG_DATA_HOME/toolhost/trust
//	files := map[string]string{"tools.toml": trust.Sum(data)}
//	if err := store.Verify(root, files); errors.Is(err, trust.ErrUntrusted) {
//		// serve only the user's own configuration; tell the user to run toolhost trust
//	}
//	err = store.Trust(root, files) // what `toolhost trust` does
//
// # What is trusted
//
// A [Record] holds, for one workspace root, the SHA-256 of each of its
// configuration files as they were when a person trusted them. [Store.Verify]
// accepts exactly that set. A changed file, a new file and a removed file
// each make the whole workspace untrusted again. One file can restrict
// another's entries, with enable = false, a toolset's exclude or a sandbox
// default. Losing it must not loosen the rest.
//
// A record also keeps where each access.fs rule of the files resolved
// when they were trusted ([Record.Targets], written by
// [Store.TrustTargets] and read back by [Store.Verified]). The sandbox
// refuses a call whose rule resolves elsewhere now: a tool that rewrote a
// link on the rule's path cannot widen the rule, even across processes.
//
// # Where records live
//
// One file per workspace in [DefaultDir] ($XDG_DATA_HOME/toolhost/trust,
// else ~/.local/share/toolhost/trust), named by a hash of the root, written
// atomically (a temporary file renamed) with owner-only permissions. A
// record that is a symbolic link, is writable by others, belongs to
// another user, or does not parse is not believed: the workspace is
// untrusted, and the error says why.
//
// [Store.Revoke] keeps the record aside (HASH.revoked), trusting nothing,
// so that the files are called untrusted rather than new; [Store.Trust]
// and Revoke prune such records once revoked for [RevokedKeep] or once
// their workspace's directory is gone (prune.go).
//
// The store is the person's: a tool must never be able to write it. Keep
// it outside every workspace (a workspace at $HOME would reach it) and out
// of the grants of sandboxed tools.
package trust
