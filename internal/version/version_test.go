package version

import (
	"runtime/debug"
	"testing"
)

func TestFromBuildInfo(t *testing.T) {
	rev := []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "abcdef1234567890abcdef1234567890abcdef12"}}
	tests := []struct {
		name     string
		version  string
		settings []debug.BuildSetting
		want     string
	}{
		{"release", "v1.2.3", rev, "v1.2.3"},
		{"pseudo-version from a checkout", "v0.0.0-20261122093000-abcdef123456+dirty", rev, "v0.0.0-20261122093000-abcdef123456+dirty"},
		{"no module version: the revision", "(devel)", rev, "devel abcdef123456"},
		{"modified", "", append(rev, debug.BuildSetting{Key: "vcs.modified", Value: "true"}), "devel abcdef123456 (modified)"},
		{"not modified", "", append(rev, debug.BuildSetting{Key: "vcs.modified", Value: "false"}), "devel abcdef123456"},
		{"short revision", "", []debug.BuildSetting{{Key: "vcs.revision", Value: "abc"}}, "devel abc"},
		{"nothing known", "(devel)", nil, "devel"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bi := &debug.BuildInfo{Main: debug.Module{Path: "github.com/toolhost/toolhost", Version: tt.version}, Settings: tt.settings}
			if got := fromBuildInfo(bi); got != tt.want {
				t.Errorf("fromBuildInfo = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestOverride(t *testing.T) {
	old := override
	t.Cleanup(func() { override = old })
	override = "v9.9.9"
	if got := String(); got != "v9.9.9" {
		t.Errorf("String() = %q with the -X override set, want v9.9.9", got)
	}
	override = ""
	if got := String(); got == "" {
		t.Error("String() is empty without an override")
	}
}
