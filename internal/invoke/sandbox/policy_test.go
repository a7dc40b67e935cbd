package sandbox_test

import (
	"reflect"
	"testing"

	"github.com/toolhost/toolhost/internal/invoke/sandbox"
	"github.com/toolhost/toolhost/tool"
)

// TestNew: the configuration's access rules reach the sandbox as they
// were decoded, each keeping where it was written, under the mode the
// sandbox setting names.
func TestNew(t *testing.T) {
	yes, no := true, false
	https, port := "https", uint16(443)
	at := func(line int) tool.Position { return tool.Position{File: "tools.toml", Line: line} }
	access := &tool.Access{
		FS:  []tool.AccessFS{{Path: "src", Read: &yes, Write: &no, Pos: at(3)}, {Path: "~/.npm", External: true, Execute: &yes, Pos: at(4)}},
		Net: []tool.AccessNet{{Host: "api.example.com", Scheme: &https, Port: &port, Allow: true, Bind: true, Pos: at(5)}},
		Env: []tool.AccessEnv{{Name: "HOME", Read: true, Pos: at(6)}},
	}
	withMode := func(m sandbox.Mode) *sandbox.Policy {
		return &sandbox.Policy{Mode: m, Access: tool.Access{FS: access.FS, Net: access.Net, Env: access.Env}}
	}
	tests := []struct {
		mode   string
		access *tool.Access
		want   *sandbox.Policy
	}{
		{"", nil, &sandbox.Policy{}},
		{"true", nil, &sandbox.Policy{Mode: sandbox.ModeOn}},
		{"require", nil, &sandbox.Policy{Mode: sandbox.ModeRequire}},
		{"false", access, withMode(sandbox.ModeOff)},
		{"true", access, withMode(sandbox.ModeOn)},
		{"", access, withMode(sandbox.ModeAuto)},
	}
	for _, tt := range tests {
		if got := sandbox.New(tt.mode, tt.access); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("New(%q, %v) = %+v, want %+v", tt.mode, tt.access != nil, got, tt.want)
		}
	}
}
