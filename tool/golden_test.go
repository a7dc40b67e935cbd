package tool

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// A golden vector is a pair of files under testdata/KIND/: NAME.json is the
// input exactly as it would arrive on the wire, NAME.golden is what this
// package makes of it: the value re-encoded as it goes back on the wire, or
// "error: " and the exact error message. Vectors named canonical_* are
// already in canonical form (for outcomes and questions: byte for byte what
// the JP assistant's serde_json writes), so their golden file equals the
// input. Run `go test ./tool -run Golden -update` after adding a vector and
// review the diff.

// decoders maps each testdata directory to the decoder it exercises. Each
// returns the decoded value ready to be re-encoded.
var decoders = map[string]func([]byte) (any, error){
	"request": func(data []byte) (any, error) { return DecodeRequest(data) },
	"outcome": func(data []byte) (any, error) { return DecodeOutcome(data) },
	"schema":  func(data []byte) (any, error) { return DecodeSchemaResponse(data) },
	// Protocol v2.
	"outcome_v2": func(data []byte) (any, error) { return DecodeOutcomeV2(data) },
	"event":      func(data []byte) (any, error) { return DecodeEvent(data) },
	"request_v2": func(data []byte) (any, error) { return DecodeRequestV2(data) },
	// Long-lived mode.
	"tagged": func(data []byte) (any, error) { return DecodeTagged(data) },
	"cancel": func(data []byte) (any, error) {
		id, ok := DecodeCancel(data)
		if !ok {
			return nil, errors.New("not a cancel message: a request")
		}
		return Cancel{Cancel: id}, nil
	},
	"stream": func(data []byte) (any, error) {
		events, out, err := DecodeStream(data)
		if err != nil {
			return nil, err
		}
		return struct {
			Events  []Event `json:"events"`
			Outcome Outcome `json:"outcome"`
		}{events, out}, nil
	},
	"answer_type": func(data []byte) (any, error) {
		var a AnswerType
		err := decodeOne(bytes.TrimSpace(data), &a)
		return a, err
	},
	"input_schema": func(data []byte) (any, error) {
		var params map[string]*Parameter
		if err := decodeOne(data, &params); err != nil {
			return nil, err
		}
		return InputSchema(params), nil
	},
}

// encodeJP encodes v as it goes on the wire: compact, with <, > and &
// unescaped (as serde_json writes them), and no trailing newline.
func encodeJP(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

type vector struct {
	kind, name string
	input      []byte
	golden     string // path of the golden file
}

func vectors(t *testing.T) []vector {
	t.Helper()
	var vs []vector
	for kind := range decoders {
		files, err := filepath.Glob(filepath.Join("testdata", kind, "*.json"))
		if err != nil {
			t.Fatal(err)
		}
		if len(files) == 0 {
			t.Fatalf("no vectors in testdata/%s", kind)
		}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			name := strings.TrimSuffix(filepath.Base(f), ".json")
			vs = append(vs, vector{kind, name, data, strings.TrimSuffix(f, ".json") + ".golden"})
		}
	}
	return vs
}

// result decodes and re-encodes v's input, returning the golden text.
func (v vector) result() string {
	val, err := decoders[v.kind](v.input)
	if err != nil {
		return "error: " + err.Error() + "\n"
	}
	out, err := encodeJP(val)
	if err != nil {
		return "encode error: " + err.Error() + "\n"
	}
	return string(out) + "\n"
}

func TestGolden(t *testing.T) {
	for _, v := range vectors(t) {
		t.Run(v.kind+"/"+v.name, func(t *testing.T) {
			got := v.result()
			if *update {
				if err := os.WriteFile(v.golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(v.golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("%s mismatch\nwant: %s got:  %s", v.golden, want, got)
			}
			rejected := strings.HasPrefix(v.name, "reject_")
			if isErr := strings.HasPrefix(got, "error: "); isErr != rejected {
				t.Errorf("vector %s: rejected = %v, want %v (names starting reject_ must fail, others must decode)", v.name, isErr, rejected)
			}
		})
	}
}

// TestCanonicalRoundTrip checks that canonical vectors survive decode →
// encode unchanged, byte for byte. For outcomes and questions this is the
// compatibility promise: what a JP tool prints, this package prints too.
func TestCanonicalRoundTrip(t *testing.T) {
	n := 0
	for _, v := range vectors(t) {
		if !strings.HasPrefix(v.name, "canonical_") {
			continue
		}
		n++
		t.Run(v.kind+"/"+v.name, func(t *testing.T) {
			want := string(bytes.TrimSpace(v.input)) + "\n"
			if got := v.result(); got != want {
				t.Errorf("round trip mismatch\nwant: %s got:  %s", want, got)
			}
		})
	}
	if n < 10 {
		t.Errorf("only %d canonical vectors", n)
	}
}

// TestGoldenIdempotent checks that every golden output is itself in
// canonical form: decoding it and encoding again gives the same bytes.
func TestGoldenIdempotent(t *testing.T) {
	for _, v := range vectors(t) {
		if v.kind == "input_schema" || v.kind == "stream" || strings.HasPrefix(v.name, "reject_") {
			continue // input_schema and stream golden files are another shape than their input
		}
		t.Run(v.kind+"/"+v.name, func(t *testing.T) {
			first := v.result()
			second := vector{kind: v.kind, input: []byte(first)}.result()
			if first != second {
				t.Errorf("second round trip changed the bytes\nfirst:  %s second: %s", first, second)
			}
		})
	}
}
