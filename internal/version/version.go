package version

import (
	"runtime/debug"
	"sync"
)

// override is set at link time with -ldflags "-X
// github.com/toolhost/toolhost/internal/version.override=v1.2.3". It wins
// over the build info.
var override string

// String returns toolhost's version. That is the -X override, else the
// module version from the build info. Else it is "devel" with the VCS
// revision, and "(modified)" for a build with uncommitted changes. Else
// it is "devel".
func String() string {
	if override != "" {
		return override
	}
	return fromBuild()
}

var fromBuild = sync.OnceValue(func() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	return fromBuildInfo(bi)
})

// fromBuildInfo derives the version from build info.
func fromBuildInfo(bi *debug.BuildInfo) string {
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev string
	var modified bool
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if rev == "" {
		return "devel"
	}
	v := "devel " + rev[:min(len(rev), 12)]
	if modified {
		v += " (modified)"
	}
	return v
}
