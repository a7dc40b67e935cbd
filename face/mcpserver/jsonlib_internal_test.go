//go:build jsonlib

package mcpserver

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// The stdio screen's decoding of one tools/call line (screenLine: checks
// with encoding/json, then plainRequest, the hand-written path) against
// the same screen with github.com/go-json-experiment/json (v2) decoding the
// fields in one pass (UTF-8, syntax and the fields together) and against
// the screen without its hand-written path (every message decoded again by
// the SDK's decoder, as before plainRequest); docs/dependencies.md has the
// numbers.

// handScreenLine is screenLine in an ordinary build.
func handScreenLine(line []byte) (jsonrpc.Message, []byte) {
	screenV2 = false
	defer func() { screenV2 = true }()
	return screenLine(line)
}

// libScreenLine is screenLine with v2 (fastScreen, jsonlib_on.go).
func libScreenLine(line []byte) (jsonrpc.Message, []byte) {
	if msg, ok := fastScreen(bytes.TrimSpace(line)); ok {
		return msg, nil
	}
	return screenLine(line)
}

// sdkScreenLine is screenLine without its hand-written path: the SDK's
// decoder decodes every message the checks pass.
func sdkScreenLine(line []byte) (jsonrpc.Message, []byte) {
	msg, answer := handScreenLine(line)
	if msg == nil {
		return msg, answer
	}
	msg, err := jsonrpc.DecodeMessage(bytes.TrimSpace(line))
	if err != nil {
		panic(err)
	}
	return msg, nil
}

// jsonlibCall is a tools/call line of the MCP call figures.
var jsonlibCall = []byte(`{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"b07_alpha","arguments":{"path":"a.txt","offset":0,"limit":2000,"mode":"text"},"_meta":{"progressToken":12}}}`)

func TestJSONLibScreenSame(t *testing.T) {
	hand, _ := handScreenLine(jsonlibCall)
	lib, _ := libScreenLine(jsonlibCall)
	sdk, _ := sdkScreenLine(jsonlibCall)
	if hand == nil || !reflect.DeepEqual(hand, lib) {
		t.Errorf("v2 screen: %#v, want %#v", lib, hand)
	}
	h, s := hand.(*jsonrpc.Request), sdk.(*jsonrpc.Request)
	if h.ID != s.ID || h.Method != s.Method || string(h.Params) != string(s.Params) {
		t.Errorf("sdk screen: %#v, want %#v", s, h)
	}
}

// BenchmarkJSONLibScreen: one tools/call line through the stdio screen.
func BenchmarkJSONLibScreen(b *testing.B) {
	for _, v := range []struct {
		name   string
		screen func([]byte) (jsonrpc.Message, []byte)
	}{{"hand", handScreenLine}, {"v2", libScreenLine}, {"sdk", sdkScreenLine}} {
		b.Run(v.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if msg, _ := v.screen(jsonlibCall); msg == nil {
					b.Fatal("refused")
				}
			}
		})
	}
}
