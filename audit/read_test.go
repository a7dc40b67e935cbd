package audit

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func line(tool string, sec int64) string {
	b, _ := (&Record{Time: time.Unix(sec, 0).UTC(), Tool: tool, Outcome: OutcomeSuccess}).MarshalJSON()
	return string(b) + "\n"
}

// TestScannerTornAndFilter: the scanner yields the selected lines, skips
// and counts lines that are not audit lines, and keeps a torn last line
// apart.
func TestScannerTornAndFilter(t *testing.T) {
	torn := strings.TrimSuffix(line("c", 30), "\n")
	torn = torn[:len(torn)/2]
	for _, tc := range []struct {
		name        string
		input       string
		filter      *Filter
		want        []string
		wantSkipped int
		wantTorn    string
	}{
		{"all", line("a", 10) + line("b", 20), nil, []string{"a", "b"}, 0, ""},
		{"torn last line", line("a", 10) + line("b", 20) + torn, nil, []string{"a", "b"}, 0, torn},
		{"last line whole without newline", line("a", 10) + strings.TrimSuffix(line("b", 20), "\n"), nil, []string{"a", "b"}, 0, ""},
		{"bad line in the middle", line("a", 10) + "garbage\n{}\n\n" + line("b", 20), nil, []string{"a", "b"}, 2, ""},
		{"by tool", line("a", 10) + line("b", 20) + line("a", 30), &Filter{Tool: "a"}, []string{"a", "a"}, 0, ""},
		{"since", line("a", 10) + line("b", 20) + line("c", 30), &Filter{Since: time.Unix(20, 0)}, []string{"b", "c"}, 0, ""},
		{"huge line", line("a", 10) + `{"x":"` + strings.Repeat("x", maxLine+10) + "\"}\n" + line("b", 20), nil, []string{"a", "b"}, 1, ""},
		{"empty", "", nil, nil, 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := NewScanner(strings.NewReader(tc.input), tc.filter)
			var got []string
			for s.Scan() {
				got = append(got, s.Record().Tool)
				if want := strings.TrimSuffix(line(s.Record().Tool, s.Record().Time.Unix()), "\n"); string(s.Line()) != want {
					t.Errorf("Line() = %s, want %s", s.Line(), want)
				}
			}
			if s.Err() != nil {
				t.Fatal(s.Err())
			}
			if strings.Join(got, ",") != strings.Join(tc.want, ",") || s.Skipped() != tc.wantSkipped || string(s.Torn()) != tc.wantTorn {
				t.Errorf("got %v, skipped %d, torn %q; want %v, skipped %d, torn %q", got, s.Skipped(), s.Torn(), tc.want, tc.wantSkipped, tc.wantTorn)
			}
		})
	}
}

func TestFilesOrder(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "audit.jsonl")
	for _, n := range []string{path, path + ".1", path + ".2", path + ".4"} {
		os.WriteFile(n, nil, 0o600)
	}
	got := strings.Join(Files(path), " ")
	if want := path + ".2 " + path + ".1 " + path; got != want {
		t.Errorf("Files = %s, want %s (a gap ends the rotated files)", got, want)
	}
}

// TestFollow: the lines already in the file are passed, then those
// appended, each once complete; a line written in two parts is passed once, whole; after a
// rotation the new file is followed from its start.
func TestFollow(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	os.WriteFile(path, []byte(line("old", 1)+line("first", 5)), 0o600)
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	got := make(chan string, 10)
	done := make(chan error, 1)
	go func() {
		done <- follow(ctx, path, &Filter{Tool: "", Since: time.Unix(2, 0)}, 5*time.Millisecond, func(l []byte, r *Record) error {
			got <- r.Tool
			if r.Tool == "stop" {
				return errors.New("stop")
			}
			return nil
		})
	}()
	appendTo := func(p, s string) {
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(s)
		f.Close()
	}
	next := func(want string) {
		t.Helper()
		select {
		case g := <-got:
			if g != want {
				t.Fatalf("followed %q, want %q", g, want)
			}
		case <-ctx.Done():
			t.Fatalf("no line followed, want %q", want)
		}
	}
	next("first") // the lines already there, from the start ("old" is filtered out)
	l := line("a", 10)
	appendTo(path, l[:20])
	time.Sleep(30 * time.Millisecond)
	appendTo(path, l[20:]+line("filtered-out", 1))
	next("a")
	appendTo(path, line("b", 11)) // perhaps not yet read when the file is rotated
	os.Rename(path, path+".1")
	appendTo(path, line("c", 12))
	next("b")
	next("c")
	appendTo(path, line("stop", 13))
	next("stop")
	if err := <-done; err == nil || err.Error() != "stop" {
		t.Errorf("Follow = %v, want fn's error", err)
	}
}

// FuzzScanner: any bytes (a log edited by hand, a disk error) are read
// without a panic, and every line yielded is an audit line.
func FuzzScanner(f *testing.F) {
	f.Add(line("a", 1) + "garbage\n" + line("b", 2)[:30])
	f.Add("\n\n{}\n")
	f.Add(`{"time":"2026-11-25T15:04:05Z","tool":"t","duration_ms":1,"outcome":"success","cut":{"kept":-1,"left_out":1e3,"result_id":"\u0000"}}` + "\n")
	f.Fuzz(func(t *testing.T, data string) {
		s := NewScanner(strings.NewReader(data), &Filter{Since: time.Unix(1, 0)})
		for s.Scan() {
			var r Record
			if err := r.UnmarshalJSON(s.Line()); err != nil {
				t.Fatalf("yielded %q, not an audit line: %v", s.Line(), err)
			}
		}
	})
}
