package policy

import (
	"reflect"
	"testing"

	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/internal/invoke/sandbox"
)

func TestOf(t *testing.T) {
	yes, no := true, false
	https, port := "https", uint16(443)
	at := func(line int) config.Position { return config.Position{File: "tools.toml", Line: line} }
	access := &config.Access{
		FS:  []config.FSRule{{Path: "src", Read: &yes, Write: &no, Pos: at(3)}, {Path: "~/.npm", External: true, Execute: &yes, Pos: at(4)}},
		Net: []config.NetRule{{Host: "api.example.com", Scheme: &https, Port: &port, Allow: true, Bind: true, Pos: at(5)}},
		Env: []config.EnvRule{{Name: "HOME", Read: true, Pos: at(6)}},
	}
	withMode := func(m sandbox.Mode) *sandbox.Policy {
		return &sandbox.Policy{
			Mode: m,
			FS:   []sandbox.FSRule{{Path: "src", Read: &yes, Write: &no, Where: "tools.toml:3"}, {Path: "~/.npm", External: true, Execute: &yes, Where: "tools.toml:4"}},
			Net:  []sandbox.NetRule{{Host: "api.example.com", Scheme: &https, Port: &port, Allow: true, Bind: true, Where: "tools.toml:5"}},
			Env:  []sandbox.EnvRule{{Name: "HOME", Read: true, Where: "tools.toml:6"}},
		}
	}
	tests := []struct {
		mode   string
		access *config.Access
		want   *sandbox.Policy
	}{
		{"", nil, &sandbox.Policy{}},
		{config.SandboxOn, nil, &sandbox.Policy{Mode: sandbox.ModeOn}},
		{config.SandboxRequire, nil, &sandbox.Policy{Mode: sandbox.ModeRequire}},
		{config.SandboxOff, access, withMode(sandbox.ModeOff)},
		{config.SandboxOn, access, withMode(sandbox.ModeOn)},
		{"", access, withMode(0)},
	}
	for _, tt := range tests {
		if got := Of(tt.mode, tt.access); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Of(%q, %v) = %+v, want %+v", tt.mode, tt.access != nil, got, tt.want)
		}
	}
}
