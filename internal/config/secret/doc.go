// Package secret reads the secrets a tool entry passes in its environment,
// at call time. It keeps them from being printed.
//
//	ref, err := secret.Parse("file:/home/ada/.config/toolhost/gh-token")
//	if err != nil { … }                  // the reference is malformed
//	v, err := ref.Resolve(nil)           // at call time, never at load time
//	if err != nil { … }                  // names the reference and the fix, never the value
//	env = append(env, "GH_TOKEN="+v.Reveal())
//	fmt.Println(v)                       // [secret]
//
// # References
//
// A [Ref] says where a value is read. "env:VAR" is a variable of
// toolhost's own environment. "file:PATH" is a file only its owner may
// read or write: mode & 077 == 0, owned by the user running toolhost.
// "keyring:NAME" is the OS keyring, read through its own client. That is
// secret-tool on Linux and security on macOS. Elsewhere it is
// [ErrNoKeyring]. The item is service "toolhost", account NAME. In TOML:
// env.GH_TOKEN = { secret = "env:GITHUB_TOKEN" }. Package config decodes
// it into Entry.Secrets.
//
// # Values
//
// A [Value] prints as [Masked] whatever the verb. That covers String,
// GoString, Format, MarshalJSON, MarshalText and slog's LogValue. Only
// [Value.Reveal] gives the text. It is for the one place that puts it in
// a tool's environment.
//
// Flow: TOML { secret = "…" } → [Parse] → [Ref] (load time, no value) →
// [Ref.Resolve] (call time) → [Value] → Reveal into the tool's env.
package secret
