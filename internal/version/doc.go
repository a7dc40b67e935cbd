// Package version says which toolhost this is. It serves `toolhost
// version`, `toolhost --version` and the MCP serverInfo.
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
// Otherwise [String] reads runtime/debug.ReadBuildInfo. It takes the main
// module's version when the go command recorded one. That is the case
// for `go install …@v1.2.3`. A git checkout gives a pseudo-version such
// as v0.0.0-20261122093000-abcdef123456, with "+dirty" when it had local
// changes. Else it takes the VCS revision: "devel abcdef123456
// (modified)". Else it is "devel".
package version
