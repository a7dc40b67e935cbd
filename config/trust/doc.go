// Package trust records which workspaces a person trusts to run their
// configuration, like direnv's allow. A workspace's .config/toolhost/*.toml
// files name commands that toolhost runs. So a freshly cloned repository
// must not run anything until a person says so. Nor must a file a tool
// wrote.
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
// when they were trusted ([Record.Targets]). [Store.TrustTargets] writes
// them and [Store.Verified] reads them back. The sandbox refuses a call
// whose rule resolves elsewhere now. So a tool that rewrote a link on the
// rule's path cannot widen the rule, even across processes.
//
// # Where records live
//
// There is one file per workspace in [DefaultDir]. That is
// $XDG_DATA_HOME/toolhost/trust, else ~/.local/share/toolhost/trust. The
// file is named by a hash of the root. It is written atomically, as a
// temporary file renamed, with owner-only permissions. Some records are
// not believed: a symbolic link, one writable by others, one that belongs
// to another user, or one that does not parse. The workspace is then
// untrusted, and the error says why.
//
// [Store.Revoke] keeps the record aside (HASH.revoked), trusting nothing.
// So the files are called untrusted rather than new. [Store.Trust] and
// Revoke prune such records once revoked for 90 days. They also
// prune them once their workspace's directory is gone (prune.go).
//
// The store is the person's. A tool must never be able to write it. Keep
// it outside every workspace, as a workspace at $HOME would reach it. Keep
// it out of the grants of sandboxed tools too.
package trust
