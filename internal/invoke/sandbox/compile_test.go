package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/tool"
)

// rights names a set of Landlock rights by JP capabilities, for
// comparison: r(ead), c(reate), u(pdate), d(elete), x (execute).
func rights(a uint64) string {
	var s string
	for _, c := range []struct {
		bits uint64
		name string
	}{{accRead, "r"}, {accCreate, "c"}, {accUpdate, "u"}, {accDelete, "d"}, {accExecute, "x"}} {
		if a&c.bits == c.bits {
			s += c.name
		}
	}
	return s
}

func tree(t *testing.T, dirs, files []string) string {
	t.Helper()
	root := realPath(t.TempDir())
	for _, d := range dirs {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(root, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// TestExpand: most-specific-wins rules become additive grants that give
// each place exactly the rights of its most specific rule.
func TestExpand(t *testing.T) {
	yes, no := true, false
	tests := []struct {
		name  string
		rules []tool.AccessFS
		want  []string // "relative path: rights", sorted
	}{
		{"the default profile", ProfileRules(),
			[]string{".: r", ".config/other: cud", "a: cud", "b: cud", "f.txt: u", "out: cud"}},
		{"one rule", []tool.AccessFS{{Path: ".", Read: &yes}}, []string{".: r"}},
		{"a deeper read-only rule under a read-write root", []tool.AccessFS{{Path: ".", Read: &yes, Write: &yes}, {Path: "a", Read: &yes}},
			[]string{".: r", ".config: cud", ".git: cud", "b: cud", "f.txt: u", "out: cud"}},
		{"a deeper rule granting more", []tool.AccessFS{{Path: ".", Read: &yes}, {Path: "a", Read: &yes, Write: &yes, Delete: &no}},
			[]string{".: r", "a: cu"}},
		{"the last rule on a path wins", []tool.AccessFS{{Path: "a", Read: &yes}, {Path: "a", Execute: &yes}},
			[]string{"a: x"}},
		{"a symlink leaving the tree is not followed", []tool.AccessFS{{Path: ".", Read: &yes, Write: &yes}, {Path: "b", Read: &yes}},
			[]string{".: r", ".config: cud", ".git: cud", "a: cud", "f.txt: u", "out: cud"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := tree(t, []string{"a/x", "b", ".git", ".config/toolhost", ".config/other", "out"}, []string{"f.txt", "a/x/y"})
			if err := os.Symlink("/etc", filepath.Join(root, "etc-link")); err != nil {
				t.Fatal(err)
			}
			abs := map[string]uint64{}
			for _, r := range tt.rules {
				abs[absRule(r.Path, root, "")] = ruleRights(r)
			}
			var got []string
			for _, g := range expand(abs) {
				rel, _ := filepath.Rel(root, g.Path)
				got = append(got, rel+": "+rights(g.Access))
			}
			slices.Sort(got)
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("grants mismatch\n got %q\nwant %q", got, tt.want)
			}
		})
	}
}

// TestCompilePlan: the plan adds what every process needs to start, the
// tool's executable and the private TMPDIR; the network only with rules or
// the profile.
func TestCompilePlan(t *testing.T) {
	root := tree(t, []string{"src"}, nil)
	port := uint16(8080)
	scheme := "https"
	p := &Policy{Mode: ModeOn, Access: tool.Access{Net: []tool.AccessNet{{Host: "127.0.0.1", Port: &port, Allow: true, Bind: true}, {Host: "*", Scheme: &scheme, Allow: true}, {Host: "c", Allow: false}}}}
	pl := p.Compile("/usr/bin/tool", root, "/home/u", "/tmp/call")
	has := func(path string, want uint64) bool {
		return slices.ContainsFunc(pl.Paths, func(g PathGrant) bool { return g.Path == path && g.Access == want })
	}
	for _, c := range []struct {
		path string
		want uint64
	}{{"/usr", accRead | accExecute}, {"/usr/bin/tool", accRead&accFile | accExecute}, {"/tmp/call", accRead | accUpdate | accCreate | accDelete}, {root, accRead}} {
		if !has(c.path, c.want) {
			t.Errorf("no grant %s %s in %v", c.path, rights(c.want), pl.Paths)
		}
	}
	if slices.ContainsFunc(pl.Paths, func(g PathGrant) bool { return strings.HasPrefix(g.Path, "/proc") }) {
		t.Errorf("the host granted a /proc path (its own /proc/self): %v", pl.Paths)
	}
	if !pl.FS || !pl.Net || !pl.Scope || !pl.NoCore || pl.Required {
		t.Errorf("plan flags = %+v", pl)
	}
	if !slices.Equal(pl.Connect, []uint16{8080, 443}) || !slices.Equal(pl.Bind, []uint16{8080}) {
		t.Errorf("connect %v bind %v, want [8080 443] [8080]", pl.Connect, pl.Bind)
	}
	off := (&Policy{Access: tool.Access{FS: []tool.AccessFS{{Path: "."}}}}).Compile("/t", root, "", "")
	if off.Net || !off.FS {
		t.Errorf("fs rules alone: net %v fs %v", off.Net, off.FS)
	}
	envOnly := (&Policy{Access: tool.Access{Env: []tool.AccessEnv{{Name: "A"}}}}).Compile("/t", root, "", "")
	if envOnly.Net || envOnly.FS || !envOnly.Scope {
		t.Errorf("env rules alone: %+v", envOnly)
	}
}

func TestWireErrors(t *testing.T) {
	root := tree(t, []string{"in"}, nil)
	if err := os.Symlink(filepath.Join(root, "in"), filepath.Join(root, "inner")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/tmp", filepath.Join(root, "out")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		rule tool.AccessFS
		want string
	}{
		{tool.AccessFS{Path: "../x"}, `invalid access rule: access.fs path "../x" leaves the workspace; write a path inside it, or an absolute or ~/ path`},
		{tool.AccessFS{Path: "out"}, `invalid access rule: access.fs path "out" resolves outside the workspace (to /tmp); set external = true on it`},
		{tool.AccessFS{Path: "inner", External: true}, `invalid access rule: access.fs path "inner" sets external = true but resolves inside the workspace; drop external`},
	}
	for _, tt := range tests {
		_, _, err := (&Policy{Access: tool.Access{FS: []tool.AccessFS{tt.rule}}}).Wire(root)
		if err == nil || err.Error() != tt.want {
			t.Errorf("%s: err = %v\nwant %s", tt.rule.Path, err, tt.want)
		}
	}
	yes := true
	got, warnings, err := (&Policy{Access: tool.Access{FS: []tool.AccessFS{{Path: "out", External: true, Read: &yes}, {Path: "gone", External: true}, {Path: "inner/x"}}}}).Wire(root)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"fs":[{"lexical_path":"out","external":true,"approved_target":"/tmp","read":true,"write":null,"create":null,"update":null,"delete":null,"execute":null},` +
		`{"lexical_path":"in/x","external":false,"approved_target":null,"read":null,"write":null,"create":null,"update":null,"delete":null,"execute":null}],"net":[],"env":[]}`
	if string(got) != want {
		t.Errorf("wire mismatch (-want +got)\n-%s\n+%s", want, got)
	}
	if len(warnings) != 1 || !strings.HasPrefix(warnings[0], `dropping external rule "gone": cannot resolve its target`) {
		t.Errorf("warnings = %q", warnings)
	}
	all, _, _ := (&Policy{Access: tool.Access{FS: []tool.AccessFS{{Path: "gone", External: true}}}}).Wire(root)
	if !strings.HasPrefix(string(all), `{"fs":[{"lexical_path":"","external":false,"approved_target":null,"read":null`) {
		t.Errorf("every rule dropped: %s, want the deny-all rule", all)
	}
}

func TestPolicyKey(t *testing.T) {
	yes := true
	a := &Policy{Mode: ModeOn, Access: tool.Access{FS: []tool.AccessFS{{Path: "x", Read: &yes, Pos: tool.Position{File: "a.toml", Line: 1}}}}}
	b := &Policy{Mode: ModeOn, Access: tool.Access{FS: []tool.AccessFS{{Path: "x", Read: &yes, Pos: tool.Position{File: "b.toml", Line: 9}}}}}
	c := &Policy{Mode: ModeRequire, Access: tool.Access{FS: []tool.AccessFS{{Path: "x", Read: &yes}}}}
	d := &Policy{Mode: ModeOn, Access: tool.Access{FS: []tool.AccessFS{{Path: "x"}}}}
	if a.Key() != b.Key() {
		t.Errorf("the same rules written in two places: %q != %q", a.Key(), b.Key())
	}
	if a.Key() == c.Key() || a.Key() == d.Key() || (*Policy)(nil).Key() != "" {
		t.Errorf("keys collide: %q %q %q", a.Key(), c.Key(), d.Key())
	}
}
