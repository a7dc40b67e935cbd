package tool

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// sandboxedRequest is a pooled run request of a sandboxed tool, as a host
// writes it: context.access holds the default profile's rules.
const sandboxedRequest = `{"id":"211","protocol":"2","context":{"action":"run","root":"/home/u/work","workspace_id":"w-c83d3670","conversation_id":"s-c5db013d","access":{"fs":[{"lexical_path":"","external":false,"approved_target":null,"read":true,"write":true,"create":null,"update":null,"delete":null,"execute":null},{"lexical_path":".git","external":false,"approved_target":null,"read":true,"write":false,"create":null,"update":null,"delete":null,"execute":null},{"lexical_path":".config/toolhost","external":false,"approved_target":null,"read":true,"write":false,"create":null,"update":null,"delete":null,"execute":null}],"net":[],"env":[]}},"tool":{"name":"alpha","arguments":{"limit":2000,"mode":"text","offset":0,"path":"a.txt"},"answers":{},"options":{}}}`

// checkScan fails unless scanRequest reads data as decodeRequest does, or
// declines it. want says which.
func checkScan(t *testing.T, data []byte, want bool) {
	t.Helper()
	got, ok := scanRequest(data)
	ref, err := decodeRequest(data)
	if ok != want {
		t.Fatalf("scanRequest(%q) reads it: %v, want %v (decodeRequest: %v)", data, ok, want, err)
	}
	if !ok {
		return
	}
	if err != nil {
		t.Fatalf("scanRequest(%q) reads what decodeRequest refuses: %v", data, err)
	}
	if !reflect.DeepEqual(got, ref) {
		t.Fatalf("scanRequest(%q) mismatch\nwant %#v\ngot  %#v", data, ref, got)
	}
}

// TestScanRequestGolden: every request vector that decodeRequest reads,
// and the sandboxed pooled request, is read by the scanner, as
// decodeRequest reads it. The vectors it refuses the scanner declines.
func TestScanRequestGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "request*", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no request vectors: %v", err)
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		data = bytes.TrimSpace(data) // as decodeRequestOf gives it
		_, err = decodeRequest(data)
		t.Run(filepath.Base(file), func(t *testing.T) { checkScan(t, data, err == nil) })
	}
	t.Run("sandboxed", func(t *testing.T) { checkScan(t, []byte(sandboxedRequest), true) })
}

// TestScanRequest: what the scanner reads itself, and what it leaves to
// decodeRequest (which then refuses it or reads it).
func TestScanRequest(t *testing.T) {
	// Arrays in an argument, three levels down: scanDepth levels in all.
	deep := strings.Repeat("[", scanDepth-3) + strings.Repeat("]", scanDepth-3)
	for _, tt := range []struct {
		name, data string
		reads      bool
	}{
		{"empty object", `{}`, true},
		{"whitespace", " {\t\"id\" :\n\"7\" ,\r\"tool\" : { \"name\" : \"t\" , \"arguments\" : { \"a\" : [ 1 , { } ] } } } ", true},
		{"nulls", `{"id":null,"protocol":null,"context":null,"tool":null}`, true},
		{"null fields", `{"context":{"action":null,"root":null,"access":null},"tool":{"name":null,"arguments":null,"answers":null,"options":null}}`, true},
		{"access kept as written", `{"context":{"access": { "fs" : [ ] , "x" : [1, -2.5e+3, "\u00e9", true, false, null] } }}`, true},
		{"access a string", `{"context":{"access":"rw"}}`, true},
		{"unknown fields", `{"x":{"y":[1,{"z":"\n"}]},"context":{"x":1,"action":"run"},"tool":{"x":[],"name":"t"}}`, true},
		{"argument values", `{"tool":{"name":"t","arguments":{"n":-0,"big":12345678901234567890,"f":1.5E-7,"s":"x","t":true,"f2":false,"z":null,"a":[],"o":{},"l":[[[]]]}}}`, true},
		{"escapes in values", `{"context":{"root":"/w/\u00e9\"\\\/\b\f\n\r\t"},"tool":{"name":"t","arguments":{"s":"\ud83d\ude00 \ud800 x"}}}`, true},
		{"escaped argument key", `{"tool":{"name":"t","arguments":{"\u0061":1,"b\n":2}}}`, true},
		{"argument keys equal once unescaped", `{"tool":{"name":"t","arguments":{"a":1,"\u0061":2}}}`, false},
		{"UTF-8 in values", "{\"context\":{\"root\":\"/w/é ✓\"},\"tool\":{\"name\":\"t\",\"arguments\":{\"é\":\"✓\"}}}", true},
		{"invalid UTF-8 in a value", "{\"context\":{\"root\":\"/w/\xff\"}}", true},
		{"nesting at the limit", `{"tool":{"name":"t","arguments":{"a":` + deep + `}}}`, true},

		{"key twice", `{"id":"1","id":"2"}`, false},
		{"key twice in context", `{"context":{"root":"/a","root":"/b"}}`, false},
		{"key twice in access", `{"context":{"access":{"fs":[{"read":true,"read":false}]}}}`, false},
		{"key twice in an unknown field", `{"x":{"a":1,"a":2}}`, false},
		{"key twice among many", `{"x":{"a":1,"b":1,"c":1,"d":1,"e":1,"f":1,"g":1,"h":1,"i":1,"j":1,"k":1,"l":1,"m":1,"n":1,"o":1,"p":1,"q":1,"r":1,"c":2}}`, false},
		{"many keys", `{"x":{"a":1,"b":1,"c":1,"d":1,"e":1,"f":1,"g":1,"h":1,"i":1,"j":1,"k":1,"l":1,"m":1,"n":1,"o":1,"p":1,"q":1,"r":1}}`, true},
		{"escaped key", `{"proto\u0063ol":"1"}`, false},
		{"escaped key in access", `{"context":{"access":{"r\u0065ad":true}}}`, false},
		{"nesting past the limit", `{"tool":{"name":"t","arguments":{"a":[` + deep + `]}}}`, false},
		{"not an object", `[]`, false},
		{"null document", `null`, false},
		{"trailing data", `{} {}`, false},
		{"trailing comma", `{"id":"1",}`, false},
		{"trailing comma in an array", `{"x":[1,]}`, false},
		{"missing colon", `{"id" "1"}`, false},
		{"unterminated", `{"id":"1"`, false},
		{"unterminated string", `{"id":"1`, false},
		{"leading zero", `{"x":01}`, false},
		{"bare minus", `{"x":-}`, false},
		{"bare dot", `{"x":1.}`, false},
		{"bare exponent", `{"x":1e}`, false},
		{"plus sign", `{"x":+1}`, false},
		{"short literal", `{"x":nul}`, false},
		{"long literal", `{"x":nulll}`, false},
		{"control character", "{\"id\":\"a\tb\"}", false},
		{"bad escape", `{"id":"\x41"}`, false},
		{"short unicode escape", `{"id":"\u00e"}`, false},
		{"id a number", `{"id":7}`, false},
		{"context a string", `{"context":"run"}`, false},
		{"tool an array", `{"tool":[]}`, false},
		{"arguments an array", `{"tool":{"name":"t","arguments":[]}}`, false},
		{"name an object", `{"tool":{"name":{}}}`, false},
	} {
		t.Run(tt.name, func(t *testing.T) { checkScan(t, []byte(tt.data), tt.reads) })
	}
}

func deref(b *[]byte) string {
	if b == nil {
		return "<nil>"
	}
	return string(*b)
}

// FuzzScanRequest holds scanRequest to decodeRequest: what it reads,
// decodeRequest reads to the same request, and what decodeRequest
// refuses, it declines.
func FuzzScanRequest(f *testing.F) {
	seed(f, "request")
	seed(f, "request_v2")
	f.Add([]byte(sandboxedRequest))
	for _, s := range []string{
		`{"tool":{"name":"t","arguments":{"\u0061":1,"a":2}}}`,
		`{"context":{"access":{"fs":[{"read":true,"read":false}]}}}`,
		`{"x":[1,-0.5e+3,"\ud800",true,false,null,{}]}`,
		"{\"context\":{\"root\":\"\xff\xfe\"}}",
		`{"x":01}`,
		`{"context":{"access":{"fs":[]}}}`,
		`{"context":{"access":{"fs":[]}x}}`,
		`{"context":{"access":[1]}}`,
		`{"context":{"access":[1]1}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		// accessSeen carries over from one input to the next: what a
		// policy read before changes nothing.
		got, ok := scanRequest(data)
		ref, err := decodeRequest(data)
		switch {
		case ok && err != nil:
			t.Fatalf("scanRequest reads what decodeRequest refuses (%v): %q", err, data)
		case ok && !reflect.DeepEqual(got, ref):
			t.Fatalf("scanRequest(%q) mismatch\nwant %#v\ngot  %#v", data, ref, got)
		case !ok && got != nil:
			t.Fatalf("scanRequest(%q) declines with a request", data)
		}
	})
}

// BenchmarkDecodeRequest: a pooled run request, as a long-lived process
// decodes one per call, with and without the sandbox's context.access
// ("encoding/json": decodeRequest, as before).
func BenchmarkDecodeRequest(b *testing.B) {
	plain := strings.Replace(sandboxedRequest, sandboxedRequest[strings.Index(sandboxedRequest, `"access":`):strings.Index(sandboxedRequest, `},"tool"`)], `"access":null`, 1)
	for _, bc := range []struct {
		name   string
		decode func([]byte) (*Request, error)
	}{{"encoding/json", decodeRequest}, {"scan", DecodeRequestV2}} {
		for _, r := range []struct{ name, data string }{{"sandboxed", sandboxedRequest}, {"unsandboxed", plain}} {
			b.Run(bc.name+"/"+r.name, func(b *testing.B) {
				data := []byte(r.data)
				b.ReportAllocs()
				for b.Loop() {
					if _, err := bc.decode(data); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// TestScanRequestSeen: a policy read once is not read again, and the
// request is still the one decodeRequest reads. Bytes that only start
// like it are read as they are.
func TestScanRequestSeen(t *testing.T) {
	const policy = `{"fs":[{"lexical_path":"","read":true}],"net":[],"env":[]}`
	req := func(access string) []byte {
		return []byte(`{"protocol":"2","context":{"action":"run","access":` + access + `},"tool":{"name":"t"}}`)
	}
	accessSeen.Store(nil)
	for _, tt := range []struct {
		name, access string
		reads        bool
		seen         string // accessSeen after it
	}{
		{"first", policy, true, policy},
		{"again", policy, true, policy},
		{"then garbage", policy + `x`, false, policy},
		{"then more", policy + `,"x":1`, true, policy},
		{"then a key twice", policy + `,"x":1,"x":2`, false, policy},
		{"another", `{"fs":[]}`, true, `{"fs":[]}`},
		{"a key twice", `{"fs":[],"fs":[]}`, false, `{"fs":[]}`},
		{"after a refused one", `{"fs":[]}`, true, `{"fs":[]}`},
		{"a string", `"rw"`, true, `{"fs":[]}`},
		{"a number", `1`, true, `{"fs":[]}`},
		{"an array", `[1]`, true, `[1]`},
		{"a longer number", `12`, true, `[1]`},
		{"spaced", ` [1] `, true, `[1]`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			checkScan(t, req(tt.access), tt.reads)
			if got := accessSeen.Load(); got == nil || string(*got) != tt.seen {
				t.Errorf("accessSeen %q, want %q", deref(got), tt.seen)
			}
		})
	}
	accessSeen.Store(nil)
}
