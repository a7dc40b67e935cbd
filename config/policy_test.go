package config

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// TestRunMode: run, requires_approval and [defaults] give each entry one
// run mode, with the place it was set.
func TestRunMode(t *testing.T) {
	tests := []struct {
		name      string
		src       string
		wantMode  string
		wantPlace string
		wantCR    string
	}{
		{"default", "[tools.t]\ncommand = \"x\"\n", RunUnattended, "", ""},
		{"requires_approval true", "[tools.t]\ncommand = \"x\"\nrequires_approval = true\n", RunAsk, "config.toml:3", ""},
		{"requires_approval false", "[tools.t]\ncommand = \"x\"\nrequires_approval = false\n", RunUnattended, "config.toml:3", ""},
		{"run ask", "[tools.t]\ncommand = \"x\"\nrun = \"ask\"\n", RunAsk, "config.toml:3", ""},
		{"run skip", "[tools.t]\ncommand = \"x\"\nrun = \"skip\"\n", RunSkip, "config.toml:3", ""},
		{"both agree", "[tools.t]\ncommand = \"x\"\nrun = \"ask\"\nrequires_approval = true\n", RunAsk, "config.toml:3", ""},
		{"skip without approval", "[tools.t]\ncommand = \"x\"\nrun = \"skip\"\nrequires_approval = false\n", RunSkip, "config.toml:3", ""},
		{"defaults", "[defaults]\nrun = \"ask\"\ncancellation_response = \"No.\"\n[tools.t]\ncommand = \"x\"\n", RunAsk, "config.toml:2", "No."},
		{"entry wins over defaults", "[defaults]\nrun = \"ask\"\n[tools.t]\ncommand = \"x\"\nrequires_approval = false\ncancellation_response = \"Mine.\"\n", RunUnattended, "config.toml:5", "Mine."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := mustParse(t, tt.src).Tools["t"]
			if got := e.RunMode(); got != tt.wantMode {
				t.Errorf("RunMode() = %q, want %q", got, tt.wantMode)
			}
			if got := e.RunPlace(); got != tt.wantPlace {
				t.Errorf("RunPlace() = %q, want %q", got, tt.wantPlace)
			}
			cr := ""
			if e.CancellationResponse != nil {
				cr = *e.CancellationResponse
			}
			if cr != tt.wantCR {
				t.Errorf("CancellationResponse = %q, want %q", cr, tt.wantCR)
			}
		})
	}
}

// TestRunErrors: a bad run value, JP's "edit", a conflict in one file and
// across layers, and bad questions are errors naming the key(s).
func TestRunErrors(t *testing.T) {
	tests := []struct {
		name   string
		layers []string
		kind   error
		want   string // the error's text, the temporary directory written as DIR
	}{
		{"bad value", []string{"[tools.t]\ncommand = \"x\"\nrun = \"always\"\n"}, ErrInvalid,
			`DIR/a.toml:3: tools.t.run: "always" is not a run mode; use "ask" (a person approves each call), "unattended" or "skip" (never run)`},
		{"edit", []string{"[tools.t]\ncommand = \"x\"\nrun = \"edit\"\n"}, ErrInvalid,
			`DIR/a.toml:3: tools.t.run: "edit" (edit the arguments before the call) is not supported; use "ask" to approve each call`},
		{"wrong type", []string{"[tools.t]\ncommand = \"x\"\nrun = true\n"}, ErrWrongType,
			`DIR/a.toml:3: tools.t.run: want a string, got boolean true`},
		{"conflict in one file", []string{"[tools.t]\ncommand = \"x\"\nrequires_approval = true\nrun = \"unattended\"\n"}, ErrInvalid,
			`DIR/a.toml:4: tools.t: requires_approval = true (DIR/a.toml:3) and run = "unattended" (DIR/a.toml:4) disagree; keep one (requires_approval = true is run = "ask")`},
		{"conflict across layers", []string{"[tools.t]\ncommand = \"x\"\nrun = \"ask\"\n", "[tools.t]\nrequires_approval = false\n"}, ErrInvalid,
			`DIR/a.toml:3: tools.t: requires_approval = false (DIR/b.toml:2) and run = "ask" (DIR/a.toml:3) disagree; keep one (requires_approval = true is run = "ask")`},
		{"skip with approval", []string{"[toolsets.t]\ncommand = \"x\"\nrequires_approval = true\nrun = \"skip\"\n"}, ErrInvalid,
			`DIR/a.toml:4: toolsets.t: requires_approval = true (DIR/a.toml:3) and run = "skip" (DIR/a.toml:4) disagree; keep one (requires_approval = true is run = "ask")`},
		{"question key", []string{"[tools.t]\ncommand = \"x\"\n[tools.t.questions.overwrite]\nanswr = true\n"}, ErrUnknownKey,
			`DIR/a.toml:4: unknown key "tools.t.questions.overwrite.answr" (did you mean "answer"?)`},
		{"question not a table", []string{"[tools.t]\ncommand = \"x\"\nquestions = { overwrite = true }\n"}, ErrWrongType,
			`DIR/a.toml:3: tools.t.questions.overwrite: want a table, got boolean true`},
		{"answer a date", []string{"[tools.t]\ncommand = \"x\"\nquestions.when.answer = 2026-01-02\n"}, ErrWrongType,
			`DIR/a.toml:3: tools.t.questions.when.answer: want a boolean, string, number, array or table, got datetime 2026-01-02 00:00:00 +0000 date-local`},
		{"defaults run", []string{"[defaults]\nrun = \"never\"\n"}, ErrInvalid,
			`DIR/a.toml:2: defaults.run: "never" is not a run mode; use "ask" (a person approves each call), "unattended" or "skip" (never run)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, files, err := loadLayers(t, tt.layers...)
			if err == nil {
				t.Fatalf("Load: no error; tools %v", cfg.Tools)
			}
			if !errors.Is(err, tt.kind) {
				t.Errorf("errors.Is(%v, %v) = false", err, tt.kind)
			}
			dir := files[0][:strings.LastIndex(files[0], "/")]
			if got := strings.ReplaceAll(err.Error(), dir, "DIR"); got != tt.want {
				t.Errorf("error mismatch\n got: %s\nwant: %s", got, tt.want)
			}
			if cfg != nil && (cfg.Tools["t"] != nil || cfg.Toolsets["t"] != nil) {
				t.Errorf("the entry in conflict is served")
			}
		})
	}
}

// TestQuestionsAnswers: questions.ID.answer holds fixed answers as a tool
// receives them (numbers as json.Number); later layers add and override.
func TestQuestionsAnswers(t *testing.T) {
	cfg, _, err := loadLayers(t, `[tools.t]
command = "x"
questions.overwrite.answer = true
questions.name.answer = "Ada"
[tools.t.questions.n]
answer = 3
[tools.t.questions.list]
answer = [1.5, "a", { k = 2 }]
`, `[tools.t.questions.overwrite]
answer = false
`)
	if err != nil {
		t.Fatal(err)
	}
	e := cfg.Tools["t"]
	want := map[string]any{
		"overwrite": false, "name": "Ada", "n": json.Number("3"),
		"list": []any{json.Number("1.5"), "a", map[string]any{"k": json.Number("2")}},
	}
	if !reflect.DeepEqual(e.Answers, want) {
		t.Errorf("Answers mismatch:\n got %#v\nwant %#v", e.Answers, want)
	}
	if p := e.Pos["questions.overwrite"]; !strings.HasSuffix(p.String(), "b.toml:2") {
		t.Errorf("Pos[questions.overwrite] = %s, want b.toml:2", p)
	}
}
