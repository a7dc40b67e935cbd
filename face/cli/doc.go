// Package cli is the toolhost command line: list, search, describe, call,
// format, schema, add, edit, remove, import, check, identity, serve, audit,
// cache clear, trust, untrust and completion, over a resolver.Catalog built
// from the TOML configuration.
//
// main stays thin; tests drive the whole app in-process with buffers:
//
//	func main() {
//		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
//		code := cli.Run(ctx, os.Args, os.Stdout, os.Stderr, os.Stdin, nil)
//		stop()
//		os.Exit(code)
//	}
//
// An embedding program (or a test) adds its own in-process tools with
// [Options].Setup, which runs on every catalog the app builds.
//
// # Workspace root
//
// The workspace root is --root when given, else the directory holding the
// .config/toolhost found by walking up from the working directory (as git
// finds its repository), else the working directory. Relative commands in
// the configuration are taken from it. So toolhost works the same from any
// subdirectory of a workspace; `add` rewrites a relative command path to be
// relative to it.
//
// # Workspace trust
//
// The workspace's .config/toolhost/*.toml is used only while the user's
// trust store (config/trust, $XDG_DATA_HOME/toolhost/trust) holds exactly
// its files: `trust` records them, `untrust` forgets them, `add`, `import`
// and `edit` keep a trusted workspace trusted with the bytes they wrote or
// the person saved (keeptrust.go). Until then the commands serve the user file
// and --config files, and say so in one stderr line with the fix.
//
// # Client mode
//
// `--mcp URL` or `--mcp -- COMMAND [ARG…]` (at the end of the line) points
// list, describe, call and identity at one MCP server and no
// configuration: the catalog's one source is that server, built by
// internal/source/servers as for a configured [mcp_servers.NAME] (mcpclient.go).
// `import --mcp NAME` writes entries for a configured server's tools.
//
// # Exit codes
//
// [Run] returns 0 on success, 1 when the tool reported an error (a plain
// command exiting non-zero, or a crash, counts as one) or asked a question
// nobody answered, and when `check` finds errors, and 2 for usage,
// configuration and invocation failures (binary missing, timed out).
// Actions never call os.Exit or cli.Exit: they return errors that Run maps
// to codes.
//
// # Output
//
// --json output is stable, indented JSON with the shapes of docs/cli.md
// (`list --json` is exactly the MCP tools/list result). Human output is
// aligned with text/tabwriter and coloured only on a terminal without
// NO_COLOR. Warnings and progress go to stderr, never stdout.
//
// # Layout
//
// Each command has a file named after it, laid out as gh lays out its
// commands. newXCommand declares the command and its flags. Its action
// checks the arguments and fills an xOptions struct. xRun does the work.
// It gets the options, the urfave/cli context (global flags, the
// context) and the app. The app holds the streams (ioStreams: writers,
// colours, terminal escaping) and the state of the catalog the command
// opens (catalog.go). Parts of one command have files of their own: add's
// MCP servers and toolsets (addmcp.go, addtoolset.go), call's questions
// (ask.go, approve.go), serve's token and audit log. Helpers of several
// commands are in files named by concept: output.go (JSON, tables),
// params.go (a tool's parameters), briefs.go (one line per tool),
// escape.go (tool text on a terminal), problem.go and problemfix.go (a
// problem's message and fix), findtool.go (a tool by name),
// workspaceroot.go, workspacetrust.go, note.go (the one stderr line about
// what was left out) and mcpclient.go (client mode).
//
// Flow: os.Args → [Run] → config.Load → resolver.New → command → stdout / exit code.
package cli
