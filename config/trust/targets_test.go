package trust

import (
	"maps"
	"os"
	"strings"
	"testing"
)

// TestTargets: a record keeps the targets it was trusted with, a record
// written before targets existed still trusts its files (with none), and
// a record whose targets are not clean absolute paths is not believed.
func TestTargets(t *testing.T) {
	s := &Store{Dir: t.TempDir() + "/trust"}
	root := t.TempDir()
	canon, _ := Canonical(root)
	files := map[string]string{"tools.toml": Sum([]byte("x"))}
	targets := map[string]string{canon + "/vendor/fork": "/home/u/fork", canon + "/out": canon + "/out"}
	tests := []struct {
		name   string
		record string            // the record file's contents; "" written by TrustTargets
		want   map[string]string // the targets Verified returns
		err    string            // Verified's error, "" none
	}{
		{"written with targets", "", targets, ""},
		{"written before targets existed",
			`{"root":"` + canon + `","files":{"tools.toml":"` + files["tools.toml"] + `"},"trusted_at":"2026-11-01T10:00:00Z"}`, nil, ""},
		{"an empty targets object",
			`{"root":"` + canon + `","files":{"tools.toml":"` + files["tools.toml"] + `"},"targets":{}}`, map[string]string{}, ""},
		{"a relative target",
			`{"root":"` + canon + `","files":{"tools.toml":"` + files["tools.toml"] + `"},"targets":{"/a":"b"}}`, nil,
			"workspace ROOT is not trusted: trust record REC is not a trust record; remove it and run toolhost trust again"},
		{"a named path not clean",
			`{"root":"` + canon + `","files":{"tools.toml":"` + files["tools.toml"] + `"},"targets":{"/a/../b":"/b"}}`, nil,
			"workspace ROOT is not trusted: trust record REC is not a trust record; remove it and run toolhost trust again"},
		{"targets not an object",
			`{"root":"` + canon + `","files":{"tools.toml":"` + files["tools.toml"] + `"},"targets":["/a"]}`, nil,
			"workspace ROOT is not trusted: trust record REC is not a trust record; remove it and run toolhost trust again"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := s.TrustTargets(root, files, targets); err != nil {
				t.Fatal(err)
			}
			if tt.record != "" {
				if err := os.WriteFile(s.path(canon), []byte(tt.record), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			rec, err := s.Verified(root, files)
			got := ""
			if err != nil {
				got = strings.NewReplacer(s.path(canon), "REC", root, "ROOT").Replace(err.Error())
			}
			if got != tt.err {
				t.Fatalf("Verified error mismatch:\nwant %q\ngot  %q", tt.err, got)
			}
			if err != nil {
				if rec != nil {
					t.Errorf("Verified refused with a record: %+v", rec)
				}
				return
			}
			if !maps.Equal(rec.Targets, tt.want) || (rec.Targets == nil) != (tt.want == nil) {
				t.Errorf("Targets = %#v, want %#v", rec.Targets, tt.want)
			}
		})
	}
	t.Run("TrustTargets refuses a relative target", func(t *testing.T) {
		_, err := s.TrustTargets(root, files, map[string]string{"/a": "a"})
		if want := `recording trust: access.fs target "/a" → "a" is not a clean absolute path`; err == nil || err.Error() != want {
			t.Errorf("TrustTargets = %v, want %s", err, want)
		}
	})
}
