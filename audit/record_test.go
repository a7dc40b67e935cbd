package audit

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// fullRecord sets every field of a Record (TestFullRecordIsFull holds it).
func fullRecord() *Record {
	status := 3
	return &Record{
		Time:      time.Date(2026, 11, 25, 15, 4, 5, 123456789, time.UTC),
		Face:      "mcp",
		Client:    Client{Name: "claude-code", Version: "2.1.0", Addr: "127.0.0.1:50312", TokenID: TokenID("s3cr3t-token")},
		Workspace: "/home/ada/project",
		Tool:      "grep",
		Source:    "bin/fs grep_files",
		Arguments: json.RawMessage(`{"pattern":"a\"b","limit":10}`),
		// ArgumentsSize is set by Write when it caps; set here to check
		// the field itself round-trips.
		ArgumentsSize: 4242,
		Approval:      Approval{Decision: DecisionApproved, By: "mcp"},
		Sandbox:       Sandbox{Profile: "default", Denial: `write "/etc/x": outside the workspace`},
		Duration:      1234567 * time.Nanosecond,
		Outcome:       OutcomeError,
		ExitStatus:    &status,
		BytesIn:       321,
		BytesOut:      654,
		Cut:           Cut{Kept: 261632, LeftOut: 4980739, Blocks: 2, Result: "3f9c0a6e1b2d4c5f8e7a9b0c1d2e3f40"},
	}
}

// TestFullRecordIsFull: the sample sets every field, at every depth, so a
// field added to Record without a place in the line fails the round trip.
func TestFullRecordIsFull(t *testing.T) {
	var check func(path string, v reflect.Value)
	check = func(path string, v reflect.Value) {
		if v.Kind() == reflect.Struct && v.Type() != reflect.TypeOf(time.Time{}) {
			for i := 0; i < v.NumField(); i++ {
				check(path+"."+v.Type().Field(i).Name, v.Field(i))
			}
			return
		}
		if v.IsZero() {
			t.Errorf("fullRecord leaves %s zero: set it, and write it in the line", path)
		}
	}
	check("Record", reflect.ValueOf(*fullRecord()))
}

// TestRecordRoundTrip: every field written by MarshalJSON comes back
// through UnmarshalJSON, and the line is what encoding/json would accept.
func TestRecordRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name string
		rec  *Record
	}{
		{"full", fullRecord()},
		{"minimal", &Record{Time: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Tool: "t", Outcome: OutcomeSuccess}},
		{"no exit status, zero duration", &Record{Time: time.Unix(1, 0).UTC(), Tool: "t", Outcome: OutcomeHostError, Face: "http"}},
		{"odd text", &Record{Time: time.Unix(2, 0).UTC(), Tool: "t", Outcome: OutcomeNeedsInput,
			Client: Client{Name: "a\x00b\u2028c\n\"é\\"}, Sandbox: Sandbox{Denial: "\t\x7f"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			line, err := tc.rec.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			if !json.Valid(line) || bytes.ContainsAny(line, "\n\r") {
				t.Fatalf("line is not one valid JSON line: %s", line)
			}
			var got Record
			if err := got.UnmarshalJSON(line); err != nil {
				t.Fatalf("UnmarshalJSON(%s): %v", line, err)
			}
			if !reflect.DeepEqual(&got, tc.rec) {
				t.Errorf("round trip mismatch:\nwant %+v\ngot  %+v\nline %s", tc.rec, &got, line)
			}
		})
	}
}

// TestLineGolden: the line's bytes, field names and order, as docs/audit.md
// shows them.
func TestLineGolden(t *testing.T) {
	line, _ := fullRecord().MarshalJSON()
	var out bytes.Buffer
	out.Write(line)
	out.WriteByte('\n')
	golden := filepath.Join("testdata", "full.jsonl")
	if *update {
		if err := os.WriteFile(golden, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out.Bytes(), want) {
		t.Errorf("line mismatch (-want +got):\n-%s+%s", want, out.Bytes())
	}
}

// TestAppendStringMatchesEncodingJSON: appendString's strings decode to
// the same text encoding/json reads (invalid UTF-8 as U+FFFD).
func TestAppendStringMatchesEncodingJSON(t *testing.T) {
	for _, s := range []string{"", "plain", "q\"b\\s", "\x00\x01\x1f\x7f", "tab\tnl\ncr\r", "é✓𝄞", "bad\xffutf8\xc3", "\u2028\u2029", "<>&"} {
		got := appendString(nil, s)
		var back string
		if err := json.Unmarshal(got, &back); err != nil {
			t.Errorf("appendString(%q) = %s: not JSON: %v", s, got, err)
			continue
		}
		want := strings.ToValidUTF8(s, "\uFFFD")
		if s == "bad\xffutf8\xc3" {
			want = "bad\uFFFDutf8\uFFFD"
		}
		if back != want {
			t.Errorf("appendString(%q) reads back %q, want %q", s, back, want)
		}
	}
}

// TestUnmarshalRefusesOtherJSON: a JSON line that is not an audit line is
// refused, with the reason.
func TestUnmarshalRefusesOtherJSON(t *testing.T) {
	for _, line := range []string{`{}`, `{"tool":"x","outcome":"success","duration_ms":1}`, `{"time":"2026-01-01T00:00:00Z","tool":"x","duration_ms":1}`} {
		var r Record
		err := r.UnmarshalJSON([]byte(line))
		const want = "audit: not an audit line: time, tool, duration_ms and outcome are required"
		if err == nil || err.Error() != want {
			t.Errorf("UnmarshalJSON(%s) = %v, want %q", line, err, want)
		}
	}
}

func FuzzRecordLine(f *testing.F) {
	f.Add("grep", "mcp", "a\"b", `{"x":1}`, int64(5))
	f.Add("t\xff", "", "\x00", `not json`, int64(0))
	f.Fuzz(func(t *testing.T, tool, face, name, args string, n int64) {
		if tool == "" {
			tool = "x"
		}
		rec := &Record{Time: time.Unix(n%1e9, 0).UTC(), Tool: tool, Face: face, Client: Client{Name: name},
			Arguments: json.RawMessage(args), Outcome: OutcomeSuccess, BytesIn: n}
		args2 := redact(nil, rec.Arguments, []string{name})
		line := rec.appendJSON(nil, args2)
		if !json.Valid(line) || bytes.ContainsAny(line, "\n\r") {
			t.Fatalf("not one valid JSON line: %q", line)
		}
		var back Record
		if err := back.UnmarshalJSON(line); err != nil {
			t.Fatalf("UnmarshalJSON(%s): %v", line, err)
		}
	})
}
