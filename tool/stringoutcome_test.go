package tool

import (
	"reflect"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/internal/dupkey"
)

// checkStringOutcome checks that stringOutcome, when it answers, gives
// what decodeOutcomeStruct gives for data. It reports whether it answered.
func checkStringOutcome(t *testing.T, data []byte) bool {
	t.Helper()
	if dupkey.Check(data) != nil {
		return false // decodeOutcomeFields asks neither then
	}
	got, ok := stringOutcome(data)
	if !ok {
		return false
	}
	want, err := decodeOutcomeStruct(data)
	if err != nil {
		t.Fatalf("stringOutcome(%q) answered, decodeOutcomeStruct failed: %v", data, err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("stringOutcome(%q):\ngot  %#v\nwant %#v", data, got, want)
	}
	return true
}

func TestStringOutcome(t *testing.T) {
	for _, tc := range []struct {
		data    string
		answers bool
	}{
		{`{"type":"success","content":"A.TXT"}`, true},
		{`{"type":"error","message":"no such file"}`, true},
		{`{"content":"x","type":"success","message":""}`, true},
		{`{"type":"needs_input"}`, true},
		{`{"type":"success","content":"caf\u00e9 \ud800 \"q\""}`, true},
		{`{"\u0074ype":"success","content":"x"}`, true},
		{`{"type":"success","content":"x","transient":true}`, false},
		{`{"type":"success","content":null}`, false},
		{`{"type":"success","content":1}`, false},
		{`{"Type":"success","content":"x"}`, false},
		{`{"type":"error","message":"m","trace":["a"]}`, false},
		{`{"type":"success","structured":{"a":1}}`, false},
		{`{"type":"success","content":"x"} {}`, false},
		{`{}`, false},
		{`[]`, false},
		{`{"type":"success","content":"` + strings.Repeat("a", stringOutcomeMax) + `"}`, false},
	} {
		if got := checkStringOutcome(t, []byte(tc.data)); got != tc.answers {
			t.Errorf("stringOutcome(%.60q) answered %v, want %v", tc.data, got, tc.answers)
		}
	}
}

// FuzzStringOutcome checks stringOutcome against decodeOutcomeStruct for
// any outcome.
func FuzzStringOutcome(f *testing.F) {
	seed(f, "outcome_v2")
	seed(f, "outcome")
	f.Add([]byte(`{"type":"success","content":"A.TXT"}`))
	f.Add([]byte(`{"message":"m\u0000","type":"error"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkStringOutcome(t, data)
	})
}
