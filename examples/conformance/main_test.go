package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/toolhost/toolhost/sdk"
	"github.com/toolhost/toolhost/sdk/sdktest"
	"github.com/toolhost/toolhost/tool"
)

func find(t *testing.T, name string) *sdk.Tool {
	t.Helper()
	for _, tl := range Tools {
		if d, err := tl.Definition(); err == nil && d.Name == name {
			return tl
		}
	}
	t.Fatalf("no tool %q", name)
	return nil
}

func TestTools(t *testing.T) {
	step = time.Millisecond
	for _, tl := range Tools {
		sdktest.Schema(t, tl)
	}

	if o := sdktest.Run(t, find(t, "test_simple_text"), nil, nil); o.Content != "This is a simple text response for testing." {
		t.Errorf("test_simple_text = %+v", o)
	}
	if o := sdktest.Run(t, find(t, "test_image_content"), nil, nil); len(o.Blocks) != 1 || o.Blocks[0].Type != tool.BlockImage || o.Blocks[0].MimeType != "image/png" {
		t.Errorf("test_image_content = %+v, want one PNG block", o)
	}
	if o := sdktest.Run(t, find(t, "test_audio_content"), nil, nil); len(o.Blocks) != 1 || o.Blocks[0].Type != tool.BlockAudio || o.Blocks[0].MimeType != "audio/wav" {
		t.Errorf("test_audio_content = %+v, want one WAV block", o)
	}
	if o := sdktest.Run(t, find(t, "test_embedded_resource"), nil, nil); len(o.Blocks) != 1 || o.Blocks[0].Type != tool.BlockResource || o.Blocks[0].Text == "" {
		t.Errorf("test_embedded_resource = %+v, want one embedded text resource", o)
	}
	if o := sdktest.Run(t, find(t, "test_multiple_content_types"), nil, nil); o.Content == "" || len(o.Blocks) != 2 || o.Blocks[0].Type != tool.BlockImage || o.Blocks[1].Type != tool.BlockResource {
		t.Errorf("test_multiple_content_types = %+v, want text, an image and a resource", o)
	}
	if o := sdktest.Run(t, find(t, "test_error_handling"), nil, nil); !o.IsError() || o.Message == "" {
		t.Errorf("test_error_handling = %+v, want an error outcome", o)
	}

	events, _ := sdktest.RunEvents(t, find(t, "test_tool_with_logging"), nil, nil)
	var logs []string
	for _, e := range events {
		if e.Type == tool.EventLog && e.Level == "info" {
			logs = append(logs, e.Message)
		}
	}
	if want := "Tool execution started|Tool processing data|Tool execution completed"; strings.Join(logs, "|") != want {
		t.Errorf("test_tool_with_logging logged %q, want %q", logs, want)
	}

	events, _ = sdktest.RunEvents(t, find(t, "test_tool_with_progress"), nil, nil)
	var progress []float64
	for _, e := range events {
		if e.Type == tool.EventProgress && e.Total != nil && *e.Total == 100 {
			progress = append(progress, e.Progress)
		}
	}
	if len(progress) != 3 || progress[0] != 0 || progress[1] != 50 || progress[2] != 100 {
		t.Errorf("test_tool_with_progress reported %v, want [0 50 100] of 100", progress)
	}
}

func TestForms(t *testing.T) {
	el := find(t, "test_elicitation")
	o := sdktest.Run(t, el, map[string]any{"message": "Please provide your information"}, nil)
	qs := o.AllQuestions()
	if len(qs) != 2 || qs[0].ID != "username" || qs[1].ID != "email" || *qs[0].PreAmble != "Please provide your information" {
		t.Fatalf("test_elicitation asks %+v, want username and email after the message", qs)
	}
	o = sdktest.Run(t, el, map[string]any{"message": "m"}, &sdktest.Options{Answers: map[string]any{"username": "ann", "email": "a@x"}})
	if !strings.Contains(o.Content, `"ann"`) {
		t.Errorf("test_elicitation with answers = %+v", o)
	}

	def := find(t, "test_elicitation_sep1034_defaults")
	o = sdktest.Run(t, def, nil, nil)
	got, _ := json.Marshal(o.AllQuestions())
	for _, want := range []string{
		`"id":"name","text":"User name"`, `"default":"John Doe"`,
		`"id":"age"`, `"integer":true`, `"default":30`,
		`"id":"score"`, `"default":95.5`,
		`"id":"status"`, `"options":["active","inactive","pending"]`, `"default":"active"`,
		`"id":"verified"`, `"default":true`,
	} {
		if !strings.Contains(string(got), want) {
			t.Errorf("test_elicitation_sep1034_defaults asks %s; missing %s", got, want)
		}
	}
}

func TestRawSchema(t *testing.T) {
	var out bytes.Buffer
	if code := serveRawSchema(strings.NewReader(`{"protocol":"2","context":{"action":"schema"}}`), &out); code != 0 {
		t.Fatalf("schema: exit %d: %s", code, out.String())
	}
	resp, err := tool.DecodeSchemaResponse(out.Bytes())
	if err != nil {
		t.Fatalf("schema: %v\n%s", err, out.String())
	}
	s := resp.Find("json_schema_2020_12_tool").InputSchema
	if s["$schema"] != "https://json-schema.org/draft/2020-12/schema" || s["$defs"] == nil || s["additionalProperties"] != false {
		t.Errorf("input_schema = %v, want $schema, $defs and additionalProperties:false", s)
	}

	out.Reset()
	code := serveRawSchema(strings.NewReader(`{"protocol":"2","context":{"action":"run"},"tool":{"name":"json_schema_2020_12_tool","arguments":{"name":"Ada"}}}`), &out)
	if o, err := tool.DecodeOutcomeV2(out.Bytes()); code != 0 || err != nil || o.Content != `arguments: {"name":"Ada"}` {
		t.Errorf("run: exit %d, %+v, %v", code, o, err)
	}
	out.Reset()
	if code := serveRawSchema(strings.NewReader(`not json`), &out); code != 2 || !strings.Contains(out.String(), `"type":"error"`) {
		t.Errorf("bad request: exit %d, %s; want an error outcome and exit 2", code, out.String())
	}
}
