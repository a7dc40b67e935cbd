package audit

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

// readAll reads every line of the files of path, oldest first, failing on
// any line that is not an audit line.
func readAll(t *testing.T, path string) []Record {
	t.Helper()
	var out []Record
	for _, name := range Files(path) {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		s := NewScanner(f, nil)
		for s.Scan() {
			out = append(out, *s.Record())
		}
		f.Close()
		if s.Err() != nil || s.Skipped() != 0 || s.Torn() != nil {
			t.Fatalf("%s: err %v, %d lines skipped, torn %q", name, s.Err(), s.Skipped(), s.Torn())
		}
	}
	return out
}

// TestWriteReadEveryField: a record written by a Log is read back whole by
// a Scanner; the file is owner-only.
func TestWriteReadEveryField(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "toolhost", "audit.jsonl")
	l, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := fullRecord()
	want.ArgumentsSize = 0 // Write sets it only when it caps
	if err := l.Write(want); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	got := readAll(t, path)
	if len(got) != 1 || !reflect.DeepEqual(&got[0], want) {
		t.Fatalf("read back mismatch:\nwant %+v\ngot  %+v", want, got)
	}
	for _, p := range []string{path, filepath.Dir(path)} {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm()&0o077 != 0 {
			t.Errorf("%s has mode %v, want owner-only", p, st.Mode().Perm())
		}
	}
}

// TestWriteRedactsAndCaps: Write redacts secret-named keys and registered
// secrets, then caps the arguments and records their size.
func TestWriteRedactsAndCaps(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	l, err := Open(path, &Options{MaxArguments: 50})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	l.AddSecret("hunter22", "", "hunter22")
	base := Record{Time: time.Unix(1, 0).UTC(), Tool: "t", Outcome: OutcomeSuccess}
	for _, args := range []string{
		`{"password":"pw-planted","q":"say hunter22"}`,
		`{"q":"` + strings.Repeat("x", 100) + ` hunter22"}`,
	} {
		r := base
		r.Arguments = json.RawMessage(args)
		if err := l.Write(&r); err != nil {
			t.Fatal(err)
		}
		if string(r.Arguments) != args {
			t.Errorf("Write changed the caller's record: %s", r.Arguments)
		}
	}
	data, _ := os.ReadFile(path)
	for _, planted := range []string{"hunter22", "pw-planted"} {
		if strings.Contains(string(data), planted) {
			t.Errorf("the log holds the secret %q:\n%s", planted, data)
		}
	}
	got := readAll(t, path)
	want := []struct {
		args string
		size int
	}{
		{`{"password":"[redacted]","q":"say [redacted]"}`, 0},
		{`"{\"q\":\"` + strings.Repeat("x", 44) + `"`, 119},
	}
	for i, w := range want {
		if string(got[i].Arguments) != w.args || got[i].ArgumentsSize != w.size {
			t.Errorf("line %d: arguments %s (size %d), want %s (size %d)", i, got[i].Arguments, got[i].ArgumentsSize, w.args, w.size)
		}
	}
}

// TestRotation: past MaxSize the file moves to FILE.1 (FILE.1 to FILE.2…),
// at most MaxFiles are kept, and the lines kept are the newest, in order.
func TestRotation(t *testing.T) {
	for _, tc := range []struct {
		maxFiles  int
		wantFiles int
	}{{2, 3}, {-1, 1}} {
		t.Run(fmt.Sprint("MaxFiles=", tc.maxFiles), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "audit.jsonl")
			line, _ := (&Record{Time: time.Unix(1, 0).UTC(), Tool: "t0000", Outcome: OutcomeSuccess}).MarshalJSON()
			const perFile = 4
			l, err := Open(path, &Options{MaxSize: int64(perFile * (len(line) + 1)), MaxFiles: tc.maxFiles})
			if err != nil {
				t.Fatal(err)
			}
			const n = 22
			for i := range n {
				if err := l.Write(&Record{Time: time.Unix(1, 0).UTC(), Tool: fmt.Sprintf("t%04d", i), Outcome: OutcomeSuccess}); err != nil {
					t.Fatal(err)
				}
			}
			l.Close()
			files := Files(path)
			if len(files) != tc.wantFiles {
				t.Fatalf("Files = %q, want %d files", files, tc.wantFiles)
			}
			if _, err := os.Stat(path + fmt.Sprint(".", tc.wantFiles)); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("a rotated file beyond MaxFiles is left: %v", err)
			}
			got := readAll(t, path)
			// 22 lines, 4 a file: the last file holds 2, the kept ones 4 each.
			wantLines := 2 + perFile*(tc.wantFiles-1)
			if len(got) != wantLines {
				t.Fatalf("read %d lines, want %d", len(got), wantLines)
			}
			for i, r := range got {
				if want := fmt.Sprintf("t%04d", n-wantLines+i); r.Tool != want {
					t.Errorf("line %d is %s, want %s", i, r.Tool, want)
				}
			}
		})
	}
}

// TestConcurrentWriters: lines from many goroutines are whole and all
// there, across rotations (run with -race).
func TestConcurrentWriters(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	l, err := Open(path, &Options{MaxSize: 64 << 10, MaxFiles: 100})
	if err != nil {
		t.Fatal(err)
	}
	const writers, each = 16, 200
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				r := &Record{Tool: fmt.Sprintf("w%d", w), Outcome: OutcomeSuccess, BytesIn: int64(i),
					Arguments: json.RawMessage(fmt.Sprintf(`{"i":%d,"pad":%q}`, i, strings.Repeat("p", i)))}
				if err := l.Write(r); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	l.Close()
	seen := map[string]int{}
	for _, r := range readAll(t, path) {
		seen[fmt.Sprint(r.Tool, "/", r.BytesIn)]++
	}
	if len(seen) != writers*each {
		t.Fatalf("read %d distinct lines, want %d", len(seen), writers*each)
	}
	for k, n := range seen {
		if n != 1 {
			t.Errorf("line %s read %d times", k, n)
		}
	}
}

// TestOpenAfterTornLine: a log reopened after a crash that tore its last
// line goes on on a line of its own: the fragment is one skipped line,
// the next record is whole.
func TestOpenAfterTornLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	whole, _ := (&Record{Time: time.Unix(1, 0).UTC(), Tool: "a", Outcome: OutcomeSuccess}).MarshalJSON()
	os.WriteFile(path, append(append(whole, '\n'), whole[:20]...), 0o600)
	l, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	l.Write(&Record{Time: time.Unix(2, 0).UTC(), Tool: "b", Outcome: OutcomeSuccess})
	l.Close()
	f, _ := os.Open(path)
	defer f.Close()
	s := NewScanner(f, nil)
	var got []string
	for s.Scan() {
		got = append(got, s.Record().Tool)
	}
	if strings.Join(got, ",") != "a,b" || s.Skipped() != 1 || s.Torn() != nil {
		t.Errorf("read %v, %d skipped, torn %q; want a,b, 1 skipped (the fragment), no torn line", got, s.Skipped(), s.Torn())
	}
}

func TestClosedAndNil(t *testing.T) {
	l, err := Open(filepath.Join(t.TempDir(), "a.jsonl"), nil)
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
	if err := l.Write(&Record{Tool: "t", Outcome: OutcomeSuccess}); !errors.Is(err, errClosed) {
		t.Errorf("Write after Close = %v, want errClosed", err)
	}
	var nl *Log
	nl.AddSecret("x")
	if err := nl.Write(&Record{}); err != nil || nl.Close() != nil || nl.Path() != "" {
		t.Errorf("a nil *Log must write nothing and report no error")
	}
}

func TestOpenError(t *testing.T) {
	dir := t.TempDir()
	blocker := filepath.Join(dir, "file")
	os.WriteFile(blocker, nil, 0o600)
	_, err := Open(filepath.Join(blocker, "audit.jsonl"), nil)
	want := "audit: mkdir " + blocker + ": not a directory (give another file with --audit FILE, or --audit off)"
	if err == nil || err.Error() != want {
		t.Errorf("Open under a file = %v, want %q", err, want)
	}
}

func TestDefaultPath(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"XDG_STATE_HOME": "/s", "HOME": "/h"}, "/s/toolhost/audit.jsonl"},
		{map[string]string{"XDG_STATE_HOME": "rel", "HOME": "/h"}, "/h/.local/state/toolhost/audit.jsonl"},
		{map[string]string{"HOME": "/h"}, "/h/.local/state/toolhost/audit.jsonl"},
		{map[string]string{}, ""},
	} {
		if got := DefaultPath(func(k string) string { return tc.env[k] }); got != tc.want {
			t.Errorf("DefaultPath(%v) = %q, want %q", tc.env, got, tc.want)
		}
	}
}

func TestTokenID(t *testing.T) {
	id := TokenID("s3cr3t-token")
	if id != "t-fb07916a0e7d" || strings.Contains(id, "s3cr3t") {
		t.Errorf("TokenID = %q, want t-fb07916a0e7d", id)
	}
	if TokenID("") != "" || TokenID("a") == TokenID("b") {
		t.Errorf("TokenID: empty must be empty and tokens told apart")
	}
}

// TestLogWorkspace: after SetWorkspace, each line names the workspace,
// unless its record names one itself; a Filter selects by it.
func TestLogWorkspace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	l, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []struct {
		set, tool, own string
	}{{"", "before", ""}, {"/w/a", "a", ""}, {"/w/a", "own", "/w/b"}, {"/w/b", "b", ""}} {
		if r.set != "" {
			l.SetWorkspace(r.set)
		}
		if err := l.Write(&Record{Tool: r.tool, Workspace: r.own, Outcome: OutcomeSuccess}); err != nil {
			t.Fatal(err)
		}
	}
	l.Close()
	var got []string
	for _, r := range readAll(t, path) {
		got = append(got, r.Tool+"@"+r.Workspace)
	}
	if want := "before@,a@/w/a,own@/w/b,b@/w/b"; strings.Join(got, ",") != want {
		t.Errorf("lines = %s, want %s", strings.Join(got, ","), want)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s := NewScanner(f, &Filter{Workspace: "/w/b"})
	got = nil
	for s.Scan() {
		got = append(got, s.Record().Tool)
	}
	if want := "own,b"; strings.Join(got, ",") != want {
		t.Errorf("Filter{Workspace: /w/b} = %s, want %s", strings.Join(got, ","), want)
	}
}
