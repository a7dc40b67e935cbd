// Package config reads toolhost's TOML configuration: the tool entries a
// user registers, in layers that merge field by field.
//
//	cfg, err := config.Load(&config.LoadOptions{Dir: root, Files: flagConfigs})
//	if err != nil {
//		return err // e.g. config.toml:7: unknown key "tools.greet.comand" (did you mean "command"?)
//	}
//	for name, e := range cfg.Tools {
//		fmt.Println(name, e.Command.Args, e.SelfDescribes(), e.Pos["command"])
//	}
//
// Flow: user file → workspace .config/toolhost/*.toml (if trusted) → --config files →
// [Parse] each → merge (later wins) → checks and [defaults] → [Config].
//
// # Files and layers
//
// [Load] reads the user file ([UserFile]), then the workspace files (the
// nearest .config/toolhost directory at or above the working directory,
// [WorkspaceDir], its *.toml files sorted by name), then explicit files. The
// same [tools.NAME] in several layers is merged field by field: a field set
// in a later layer wins, a field it leaves unset keeps the earlier value.
// Overridable scalars are pointers ([Entry].Enable is a *bool). So a later
// enable = false does override an earlier true. Parameters merge per
// parameter and per field. [Entry].Pos remembers, per field, the file:line
// that set it last; [Entry].Place is where the entry was first defined.
//
// # Workspace trust
//
// A workspace's files name commands that run as soon as the configuration
// is resolved, so [Load] uses them only when [LoadOptions].Trust trusts
// them: by default the [trust.Store] that `toolhost trust` writes, which
// accepts exactly the files (by SHA-256) a person trusted. An untrusted
// workspace is left out as a whole and reported as the first of the
// [Problems]. The user file and explicit files are always read. A host that
// decides otherwise passes its own [Trust], or [TrustAll].
//
// A trusted workspace may tighten the run mode and sandbox the user file
// sets, never loosen them: a looser setting is left out and reported as
// an [ErrLoosens] problem.
//
// # Entries
//
// A [tools.NAME] table is one tool: a command, optionally the name of the
// tool inside a multi-tool binary, and overrides of what the binary says
// about itself. A [toolsets.NAME] table serves every tool a binary declares
// (with prefix, include or exclude). It takes the invocation keys only. The
// command is a string of shell words ([SplitWords]) or an array. JP's
// source = "local" or "local.TOOL" is accepted as the spelling of tool.
// docs/config.md documents every key.
//
// # MCP servers and remotes
//
// A [mcp_servers.NAME] table ([Server]) is an MCP server, started by a
// command (stdio) or reached at a URL (streamable HTTP). An entry serves
// its tools with JP's source = "mcp.NAME" (all of them, with prefix,
// include and exclude, [Entry.AllTools]) or "mcp.NAME.TOOL" (one, with
// overrides; see package internal/config/mcptool for their merge). A
// [remotes.NAME] table ([Remote]) is a Tool Discovery Protocol provider
// (package internal/source/remote). Both merge across layers as entries do, and a
// workspace's are read only when it is trusted. Both take run and
// requires_approval for all their tools, [defaults]' run when they set
// neither. No credential is read from the file: bearer_token_env names
// the variable holding the token, which never goes over plain http:// to
// a host that is not loopback unless the table says insecure = true.
//
// [Config.Grants] lists what a configuration gives its tools that a
// person should see before trusting it.
//
// # Errors
//
// Decoding is strict. Every problem is an [*Error] "file:line: text" whose
// kind is one of [ErrUnknownKey], [ErrWrongType], [ErrInvalid] and
// [ErrSyntax]. A TOML syntax error also unwraps to the toml.ParseError, whose
// ErrorWithPosition shows the line. Several problems in one file are joined
// with errors.Join, sorted by line.
//
// [Load] does not let one broken file take down the rest. It leaves out
// the files with errors, and the entries they also configure, as
// [ErrWithheld]. It leaves out the entries that fail the checks after
// merging. It returns the [Config] of everything else together with a
// [Problems] error listing what it left out. Its *Config is nil only when nothing can be
// read at all (a missing explicit file).
//
// # Editing
//
// [AppendTool] adds a [tools.NAME] entry to a file for `toolhost add`,
// leaving the existing bytes untouched.
package config
