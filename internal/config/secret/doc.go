// Package secret reads the secrets a tool entry passes in its environment,
// at call time, and keeps them from being printed.
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
// A [Ref] says where a value is read: "env:VAR" (a variable of toolhost's
// own environment), "file:PATH" (a file only its owner may read or write:
// mode & 077 == 0, owned by the user running toolhost) or "keyring:NAME"
// (the OS keyring, read through its own client: secret-tool on Linux,
// security on macOS; elsewhere [ErrNoKeyring]; the item is service
// "toolhost", account NAME). In TOML:
// env.GH_TOKEN = { secret = "env:GITHUB_TOKEN" } (package config decodes
// it into Entry.Secrets).
//
// # Values
//
// A [Value] prints as [Masked] whatever the verb (String, GoString,
// Format, MarshalJSON, MarshalText, slog's LogValue): only [Value.Reveal]
// gives the text, for the one place that puts it in a tool's environment.
//
// Flow: TOML { secret = "…" } → [Parse] → [Ref] (load time, no value) →
// [Ref.Resolve] (call time) → [Value] → Reveal into the tool's env.
package secret
