package tool

import (
	"encoding/json"
	"os"
	"testing"
)

// TestAccessPolicyGolden: the wire form of an AccessPolicy is byte for
// byte what the JP assistant's jp_tool crate serialises with serde_json:
// every field present in its order, unset capabilities null, empty lists
// [] (testdata/access/policy.golden).
func TestAccessPolicyGolden(t *testing.T) {
	yes, no := true, false
	target := "/srv/shared"
	port := uint16(443)
	scheme, prefix := "https", "/repos"
	tests := []struct {
		name string
		p    AccessPolicy
	}{
		{"empty", AccessPolicy{}},
		{"policy", AccessPolicy{
			FS: []FSRule{
				{LexicalPath: "", Read: &yes},
				{LexicalPath: "src", Read: &yes, Write: &yes, Delete: &no},
				{LexicalPath: "fork", External: true, ApprovedTarget: &target, Read: &yes, Execute: &yes},
			},
			Net: []NetRule{{Host: "api.github.com", Scheme: &scheme, Port: &port, PathPrefix: &prefix, Allow: true}, {Host: "example.com"}},
			Env: []EnvRule{{Name: "AWS_*", Read: true}, {Name: "AWS_SECRET_ACCESS_KEY"}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Marshal(tt.p)
			if err != nil {
				t.Fatal(err)
			}
			golden := "testdata/access/" + tt.name + ".golden"
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(want) {
				t.Errorf("AccessPolicy mismatch (-want +got)\n-%s\n+%s", want, got)
			}
			var back AccessPolicy
			if err := json.Unmarshal(got, &back); err != nil {
				t.Fatal(err)
			}
			again, _ := Marshal(back)
			if string(again) != string(got) {
				t.Errorf("round trip changed it:\n%s\n%s", got, again)
			}
		})
	}
}

// TestAccessWire: the configured policy compiles itself to the wire form
// of the golden file: workspace rules made relative to the root, rules
// outside the workspace left out, net and env rules without bind and
// without where they were written. No rule at all is access null.
func TestAccessWire(t *testing.T) {
	root := t.TempDir()
	yes, no := true, false
	port := uint16(443)
	scheme, prefix := "https", "/repos"
	at := Position{File: "tools.toml", Line: 3}
	tests := []struct {
		name   string
		access *Access
		golden string // "" for access null
	}{
		{"nil", nil, ""},
		{"no rules", &Access{}, ""},
		{"rules", &Access{
			FS: []AccessFS{
				{Path: ".", Read: &yes, Pos: at},
				{Path: "./src/", Read: &yes, Write: &yes, Delete: &no},
				{Path: "~/.npm", Read: &yes},
				{Path: "/etc", Read: &yes},
			},
			Net: []AccessNet{{Host: "api.github.com", Scheme: &scheme, Port: &port, PathPrefix: &prefix, Allow: true, Bind: true, Pos: at}, {Host: "example.com"}},
			Env: []AccessEnv{{Name: "AWS_*", Read: true, Pos: at}, {Name: "AWS_SECRET_ACCESS_KEY"}},
		}, `{"fs":[{"lexical_path":"","external":false,"approved_target":null,"read":true,"write":null,"create":null,"update":null,"delete":null,"execute":null},` +
			`{"lexical_path":"src","external":false,"approved_target":null,"read":true,"write":true,"create":null,"update":null,"delete":false,"execute":null}],` +
			`"net":[{"host":"api.github.com","scheme":"https","port":443,"path_prefix":"/repos","allow":true},{"host":"example.com","scheme":null,"port":null,"path_prefix":null,"allow":false}],` +
			`"env":[{"name":"AWS_*","read":true},{"name":"AWS_SECRET_ACCESS_KEY","read":false}]}`},
		{"outside rules only", &Access{FS: []AccessFS{{Path: "/etc", Read: &yes}}}, `{"fs":[],"net":[],"env":[]}`},
	}
	for _, tt := range tests {
		got, warnings, err := tt.access.Wire(root)
		if err != nil || warnings != nil {
			t.Fatalf("%s: %v, %q", tt.name, err, warnings)
		}
		if string(got) != tt.golden {
			t.Errorf("%s: wire\n got %s\nwant %s", tt.name, got, tt.golden)
		}
	}
}
