package audit

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRecent: Recent yields the last n selected lines, newest first,
// across rotated files, skipping a torn last line, lines that are not
// audit lines and one longer than a line can be, whatever the chunk
// boundaries (the lines below span many 64 KiB chunks).
func TestRecent(t *testing.T) {
	var many strings.Builder
	var manyTools []string
	for i := range 3000 { // ~200 KiB: lines cross chunk boundaries
		tool := fmt.Sprintf("t%d", i%3)
		many.WriteString(line(tool, int64(i)))
		manyTools = append(manyTools, fmt.Sprintf("%s@%d", tool, i))
	}
	torn := strings.TrimSuffix(line("c", 99), "\n")
	torn = torn[:len(torn)/2]
	huge := `{"x":"` + strings.Repeat("x", maxLine+10) + "\"}\n"
	newest := func(all []string, keep func(string) bool, n int) []string {
		var out []string
		for i := len(all) - 1; i >= 0 && len(out) < n; i-- {
			if keep(all[i]) {
				out = append(out, all[i])
			}
		}
		return out
	}
	for _, tc := range []struct {
		name   string
		files  map[string]string // by suffix: "" the current file, ".1" the newest rotated one
		filter *Filter
		n      int
		want   []string
	}{
		{"newest first", map[string]string{"": line("a", 1) + line("b", 2) + line("c", 3)}, nil, 10, []string{"c@3", "b@2", "a@1"}},
		{"limit", map[string]string{"": line("a", 1) + line("b", 2) + line("c", 3)}, nil, 2, []string{"c@3", "b@2"}},
		{"by tool", map[string]string{"": line("a", 1) + line("b", 2) + line("a", 3)}, &Filter{Tool: "a"}, 10, []string{"a@3", "a@1"}},
		{"tool named inside another's arguments", map[string]string{"": `{"time":"1970-01-01T00:00:05Z","tool":"b","arguments":{"x":"\"tool\":\"a\""},"duration_ms":0,"outcome":"success"}` + "\n" + line("a", 1)}, &Filter{Tool: "a"}, 10, []string{"a@1"}},
		{"since", map[string]string{"": line("a", 1) + line("b", 2) + line("c", 3)}, &Filter{Since: time.Unix(2, 0)}, 10, []string{"c@3", "b@2"}},
		{"torn last line", map[string]string{"": line("a", 1) + line("b", 2) + torn}, nil, 10, []string{"b@2", "a@1"}},
		{"whole last line without newline", map[string]string{"": line("a", 1) + strings.TrimSuffix(line("b", 2), "\n")}, nil, 10, []string{"b@2", "a@1"}},
		{"bad and huge lines", map[string]string{"": line("a", 1) + "garbage\n\n{}\n" + huge + line("b", 2) + huge}, nil, 10, []string{"b@2", "a@1"}},
		{"huge first line", map[string]string{"": huge + line("a", 1)}, nil, 10, []string{"a@1"}},
		{"rotated files, newest first", map[string]string{".2": line("a", 1), ".1": line("b", 2) + line("c", 3), "": line("d", 4)}, nil, 10, []string{"d@4", "c@3", "b@2", "a@1"}},
		{"stops at n before the older files", map[string]string{".1": line("a", 1), "": line("b", 2) + line("c", 3)}, nil, 2, []string{"c@3", "b@2"}},
		{"no current file", map[string]string{".1": line("a", 1)}, nil, 10, []string{"a@1"}},
		{"no file", nil, nil, 10, nil},
		{"n zero", map[string]string{"": line("a", 1)}, nil, 0, nil},
		{"many lines", map[string]string{"": many.String()}, nil, 5000, newest(manyTools, func(string) bool { return true }, 5000)},
		{"many lines, one tool, limit", map[string]string{"": many.String()}, &Filter{Tool: "t1"}, 700, newest(manyTools, func(s string) bool { return strings.HasPrefix(s, "t1@") }, 700)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "audit.jsonl")
			for suffix, content := range tc.files {
				if err := os.WriteFile(path+suffix, []byte(content), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			recs, err := Recent(path, tc.filter, tc.n)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range recs {
				got = append(got, fmt.Sprintf("%s@%d", r.Tool, r.Time.Unix()))
			}
			if strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Errorf("got  %d %v\nwant %d %v", len(got), got, len(tc.want), tc.want)
			}
		})
	}
}

// TestRecentWhileWriting: Recent reads while a Log appends from several
// goroutines and never returns a line twice or a line that is not whole.
func TestRecentWhileWriting(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	l, err := Open(path, &Options{MaxSize: 32 << 10})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	done := make(chan struct{})
	for w := range 4 {
		go func() {
			for i := 0; ; i++ {
				select {
				case <-done:
					return
				default:
				}
				l.Write(&Record{Time: time.Unix(int64(w*1_000_000+i), 0), Tool: "t", Arguments: []byte(`{"i":` + fmt.Sprint(i) + `}`), Outcome: OutcomeSuccess})
			}
		}()
	}
	defer close(done)
	for range 50 {
		recs, err := Recent(path, &Filter{Tool: "t"}, 20)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[int64]bool{}
		for _, r := range recs {
			if r.Tool != "t" || r.Outcome != OutcomeSuccess || len(r.Arguments) == 0 || seen[r.Time.Unix()] {
				t.Fatalf("bad or repeated record %+v", r)
			}
			seen[r.Time.Unix()] = true
		}
	}
}

// FuzzRecent: whatever a file holds, Recent yields the lines the Scanner
// reads from its start, in reverse, and never fails or panics.
func FuzzRecent(f *testing.F) {
	f.Add([]byte(line("a", 1) + line("b", 2)))
	f.Add([]byte(line("a", 1) + "garbage\n\n" + strings.TrimSuffix(line("b", 2), "\n")))
	f.Add([]byte(line("a", 1) + `{"time":"1970-01-01T00:00:03Z","tool":"a","argu`))
	f.Add([]byte("\n\n{}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "audit.jsonl")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		for _, filter := range []*Filter{nil, {Tool: "a"}} {
			got, err := Recent(path, filter, 1000)
			if err != nil {
				t.Fatal(err)
			}
			var want []Record
			s := NewScanner(strings.NewReader(string(data)), filter)
			for s.Scan() {
				want = append([]Record{*s.Record()}, want...)
			}
			if len(want) > 1000 {
				want = want[:1000]
			}
			if len(got) != len(want) {
				t.Fatalf("filter %+v: Recent gave %d lines, the Scanner %d", filter, len(got), len(want))
			}
			for i := range got {
				g, _ := got[i].MarshalJSON()
				w, _ := want[i].MarshalJSON()
				if string(g) != string(w) {
					t.Fatalf("line %d: Recent %s, Scanner %s", i, g, w)
				}
			}
		}
	})
}
