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
