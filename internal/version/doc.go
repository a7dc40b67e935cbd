// Package version says which toolhost this is, for `toolhost version`,
// `toolhost --version` and the MCP serverInfo.
//
//	fmt.Println("toolhost", version.String()) // toolhost v0.4.1
//
// Flow: -ldflags -X override, else the build info (module version, else
// VCS revision) → [String].
//
// # Where the version comes from
//
// A release build may set it outright:
//
//	go build -ldflags "-X github.com/toolhost/toolhost/internal/version.override=v1.2.3" ./cmd/toolhost
//
// Otherwise [String] reads runtime/debug.ReadBuildInfo: the main module's
// version when the go command recorded one (`go install …@v1.2.3`, or a
// pseudo-version such as v0.0.0-20261122093000-abcdef123456 from a git
// checkout, "+dirty" when it had local changes), else the VCS revision
// ("devel abcdef123456 (modified)"), else "devel".
package version
