package sdk_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/toolhost/toolhost/sdk"
	"github.com/toolhost/toolhost/sdk/sdktest"
	"github.com/toolhost/toolhost/tool"
)

// Match and Matches are a structured output.
type Match struct {
	Path string `json:"path" jsonschema:"description=File path."`
	Line int    `json:"line" jsonschema:"minimum=1"`
}

type Matches struct {
	Matches   []Match  `json:"matches"`
	Truncated bool     `json:"truncated,omitempty"`
	Best      *Match   `json:"best"`
	Tags      []string `json:"tags,omitempty"`
}

func (m Matches) String() string { return fmt.Sprintf("%d matches", len(m.Matches)) }

type plainOut struct {
	N int `json:"n"`
}

type searchIn struct {
	N int `json:"n,omitempty" jsonschema:"default=2"`
}

var search = sdk.New("search", "Search.", func(ctx context.Context, in searchIn) (Matches, error) {
	var out Matches
	for i := range in.N {
		sdk.Progress(ctx, float64(i+1), float64(in.N), fmt.Sprintf("file %d", i))
		out.Matches = append(out.Matches, Match{Path: fmt.Sprintf("f%d", i), Line: i + 1})
	}
	sdk.Log(ctx, sdk.LevelWarning, "skipped a binary file")
	return out, nil
}, &sdk.Options[searchIn]{Title: "Search files", Icons: []tool.Icon{{Src: "data:image/png;base64,AA==", MimeType: "image/png"}}})

// run serves one request line and returns stdout and stderr.
func run(t *testing.T, stdin string, tools ...*sdk.Tool) (string, string, int) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := sdk.Run(t.Context(), strings.NewReader(stdin), &stdout, &stderr, tools...)
	return stdout.String(), stderr.String(), code
}

func req2(version, action, name, args, extra string) string {
	return `{"protocol":"` + version + `","context":{"action":"` + action + `","root":"/r","workspace_id":"w","conversation_id":"c"},"tool":{"name":"` + name + `","arguments":` + args + extra + `}}`
}

func TestOutputSchemaGolden(t *testing.T) {
	resp := sdktest.Schema(t, search, sdk.New("plain", "Plain.", func(context.Context, struct{}) (*plainOut, error) { return &plainOut{}, nil }, nil))
	if resp.Protocol != tool.Version2 {
		t.Errorf("protocol = %q, want 2", resp.Protocol)
	}
	got, err := json.MarshalIndent(resp, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "output_schema.json", append(got, '\n'))
}

func TestEvents(t *testing.T) {
	stdout, stderr, code := run(t, req2("2", "run", "search", `{}`, ""), search)
	want := `{"type":"progress","progress":1,"total":2,"message":"file 0"}
{"type":"progress","progress":2,"total":2,"message":"file 1"}
{"type":"log","level":"warning","message":"skipped a binary file"}
{"type":"success","content":"2 matches","structured":{"matches":[{"path":"f0","line":1},{"path":"f1","line":2}],"best":null}}
`
	if stdout != want || code != 0 {
		t.Errorf("v2 stdout mismatch (exit %d)\nwant %s\ngot  %s", code, want, stdout)
	}
	events, o, err := tool.DecodeStream([]byte(stdout))
	if err != nil || len(events) != 3 || o.Type != tool.KindSuccess {
		t.Errorf("DecodeStream = %v, %v, %v", events, o, err)
	}

	// A v1 request: no events, the log line on stderr, text only.
	stdout, stderr, _ = run(t, req2("1", "run", "search", `{}`, ""), search)
	if want := `{"type":"success","content":"2 matches"}` + "\n"; stdout != want {
		t.Errorf("v1 stdout = %s, want %s", stdout, want)
	}
	if !strings.Contains(stderr, "warning: skipped a binary file\n") {
		t.Errorf("v1 stderr = %q, want the log line", stderr)
	}
}

// TestEventsConcurrent sends events from many goroutines, and after the
// function returned: every line is whole, progress increases, and the
// outcome is the last line.
func TestEventsConcurrent(t *testing.T) {
	release := make(chan struct{})
	var late sync.WaitGroup
	busy := sdk.New("busy", "Busy.", func(ctx context.Context, in struct{}) (string, error) {
		var wg sync.WaitGroup
		for i := range 8 {
			wg.Go(func() {
				for j := range 50 {
					sdk.Progress(ctx, float64(i*50+j), 400, "")
					sdk.Log(ctx, sdk.LevelDebug, "step")
				}
			})
		}
		wg.Wait()
		sdk.Progress(ctx, 3, 400, "lower than before: dropped")
		sdk.Progress(ctx, -1, 0, "negative: dropped")
		late.Go(func() {
			<-release
			sdk.Progress(ctx, 1000, 0, "after the return: dropped")
			sdk.Log(ctx, "verbose", "after the return: dropped")
		})
		return "done", nil
	}, nil)
	stdout, _, _ := run(t, req2("2", "run", "busy", `{}`, ""), busy)
	close(release)
	late.Wait()
	events, o, err := tool.DecodeStream([]byte(stdout))
	if err != nil || o.Content != "done" {
		t.Fatalf("DecodeStream: %v, %v", o, err)
	}
	last, logs := -1.0, 0
	for _, e := range events {
		switch e.Type {
		case tool.EventProgress:
			if e.Progress < last || e.Message != "" {
				t.Errorf("progress %v after %v (%q)", e.Progress, last, e.Message)
			}
			last = e.Progress
		case tool.EventLog:
			logs++
		}
	}
	if logs != 400 {
		t.Errorf("%d log events, want 400", logs)
	}
}

func TestLogUnknownLevel(t *testing.T) {
	tl := sdk.New("lg", "Logs.", func(ctx context.Context, in struct{}) (string, error) {
		sdk.Log(ctx, "verbose", "hi")
		return "", nil
	}, nil)
	events, _ := sdktest.RunEvents(t, tl, nil, nil)
	if len(events) != 1 || events[0].Level != "info" || events[0].Message != "hi" {
		t.Errorf("events = %+v, want one info line", events)
	}
}

func TestStructured(t *testing.T) {
	events, o := sdktest.RunEvents(t, search, map[string]any{"n": 1}, nil)
	if len(events) != 2 {
		t.Errorf("events = %+v", events)
	}
	got := sdktest.Structured[Matches](t, o)
	if len(got.Matches) != 1 || got.Matches[0] != (Match{"f0", 1}) || o.Content != "1 matches" {
		t.Errorf("structured = %+v, content %q", got, o.Content)
	}

	// Without a String method, v2 leaves the text to the host; v1 gets the JSON.
	plain := sdk.New("plain", "Plain.", func(context.Context, struct{}) (*plainOut, error) { return &plainOut{N: 7}, nil }, nil)
	if o := sdktest.Run(t, plain, nil, nil); o.Content != "" || sdktest.Structured[plainOut](t, o).N != 7 {
		t.Errorf("v2 = %+v", o)
	}
	if o := sdktest.Run(t, plain, nil, &sdktest.Options{Protocol: "1"}); o.Content != `{"n":7}` || o.Structured != nil {
		t.Errorf("v1 = %+v", o)
	}

	nilOut := sdk.New("nil_out", "Nil.", func(context.Context, struct{}) (*plainOut, error) { return nil, nil }, nil)
	if o := sdktest.Run(t, nilOut, nil, nil); o.Message != `the tool returned a nil *sdk_test.plainOut and no error` {
		t.Errorf("nil output = %+v", o)
	}
	failing := sdk.New("failing", "Fails.", func(context.Context, struct{}) (*plainOut, error) { return nil, errors.New("no") }, nil)
	if o := sdktest.Run(t, failing, nil, nil); o.Message != "no" {
		t.Errorf("error = %+v", o)
	}
}

func TestBadOutputType(t *testing.T) {
	bad := sdk.New("bad", "Bad.", func(context.Context, struct{}) (int, error) { return 1, nil }, nil)
	if _, err := bad.Definition(); err == nil || err.Error() != `sdk: tool "bad": output type int is not a string, sdk.Result or a struct` {
		t.Errorf("Definition error = %v", err)
	}
	type rec struct{ Next *rec }
	recursive := sdk.New("recursive", "Recursive output.", func(context.Context, struct{}) (rec, error) { return rec{}, nil }, nil)
	if _, err := recursive.Definition(); err == nil || !strings.Contains(err.Error(), "recursive type") || !strings.Contains(err.Error(), "(the output type)") {
		t.Errorf("Definition error = %v", err)
	}
}

func TestBlocks(t *testing.T) {
	png := []byte("\x89PNG\r\n")
	chart := sdk.New("chart", "Chart.", func(ctx context.Context, in struct{}) (sdk.Result, error) {
		return sdk.Result{Text: "A chart:", Blocks: []tool.Block{
			sdk.Image("image/png", png), sdk.Link("file:///w/r.csv", "r.csv", "text/csv"), sdk.Text("more"),
		}}, nil
	}, nil)
	stdout, _, _ := run(t, req2("2", "run", "chart", `{}`, ""), chart)
	want := `{"type":"success","content":"A chart:","blocks":[{"type":"image","data":"iVBORw0K","mime_type":"image/png"},{"type":"resource_link","mime_type":"text/csv","uri":"file:///w/r.csv","name":"r.csv"},{"type":"text","text":"more"}]}` + "\n"
	if stdout != want {
		t.Errorf("v2 stdout mismatch\nwant %s\ngot  %s", want, stdout)
	}
	if _, err := tool.DecodeOutcomeV2([]byte(stdout)); err != nil {
		t.Error(err)
	}
	o := sdktest.Run(t, chart, nil, &sdktest.Options{Protocol: "1"})
	if want := "A chart:\n[image: image/png, 8 bytes of base64]\n[r.csv: file:///w/r.csv]\nmore"; o.Content != want {
		t.Errorf("v1 content = %q, want %q", o.Content, want)
	}

	media := sdk.New("media", "Media.", func(ctx context.Context, in struct{}) (sdk.Result, error) {
		return sdk.Result{Blocks: []tool.Block{sdk.Audio("audio/wav", []byte("RIFF")), sdk.Resource("test://r", "text/plain", "hi")}}, nil
	}, nil)
	stdout, _, _ = run(t, req2("2", "run", "media", `{}`, ""), media)
	want = `{"type":"success","content":"","blocks":[{"type":"audio","data":"UklGRg==","mime_type":"audio/wav"},{"type":"resource","text":"hi","mime_type":"text/plain","uri":"test://r"}]}` + "\n"
	if stdout != want {
		t.Errorf("v2 stdout mismatch\nwant %s\ngot  %s", want, stdout)
	}
	if _, err := tool.DecodeOutcomeV2([]byte(stdout)); err != nil {
		t.Error(err)
	}
	o = sdktest.Run(t, media, nil, &sdktest.Options{Protocol: "1"})
	if want := "[audio: audio/wav, 8 bytes of base64]\n[test://r]\nhi"; o.Content != want {
		t.Errorf("v1 content = %q, want %q", o.Content, want)
	}
	for _, bad := range []struct {
		block tool.Block
		want  string
	}{
		{sdk.Audio("image/png", []byte("x")), `block 0: audio block: MIME type "image/png" is not an audio type`},
		{sdk.Resource("", "text/plain", "x"), `block 0: resource block: a URI is required`},
		{sdk.Resource("test://r", "text/plain", ""), `block 0: resource block: either a text or data is required`},
	} {
		tl := sdk.New("bad", "Bad.", func(ctx context.Context, in struct{}) (sdk.Result, error) {
			return sdk.Result{Blocks: []tool.Block{bad.block}}, nil
		}, nil)
		if o := sdktest.Run(t, tl, nil, nil); !strings.Contains(o.Message, bad.want) {
			t.Errorf("block %+v: outcome %+v, want %q", bad.block, o, bad.want)
		}
	}

	badImage := sdk.New("bad_image", "Bad.", func(ctx context.Context, in struct{}) (sdk.Result, error) {
		return sdk.Result{Blocks: []tool.Block{sdk.Image("text/plain", png)}}, nil
	}, nil)
	if o := sdktest.Run(t, badImage, nil, nil); !strings.Contains(o.Message, `block 0: image block: MIME type "text/plain" is not an image type`) {
		t.Errorf("bad image = %+v", o)
	}
}

type login struct {
	User  string  `json:"user" jsonschema:"description=User name?,default=ada"`
	Token string  `json:"token" jsonschema:"description=API token?,secret"`
	Days  uint8   `json:"days" jsonschema:"description=Valid for how many days?,maximum=90,default=30"`
	Ratio float64 `json:"ratio" jsonschema:"minimum=0.5"`
	Admin bool    `json:"admin" jsonschema:"default=false"`
	Mode  string  `json:"mode" jsonschema:"enum=read,enum=write,default=read"`
}

var signIn = sdk.New("sign_in", "Sign in.", func(ctx context.Context, in struct{}) (string, error) {
	l, err := sdk.AskForm[login](ctx, "Sign in to the registry")
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s %d %d %v %v %s", l.User, len(l.Token), l.Days, l.Ratio, l.Admin, l.Mode), nil
}, nil)

func TestAskForm(t *testing.T) {
	stdout, _, _ := run(t, req2("2", "run", "sign_in", `{}`, `,"answers":{"user":"bob"}`), signIn)
	want := `{"type":"needs_input","questions":[` +
		`{"id":"token","text":"API token?","pre_amble":"Sign in to the registry","answer_type":"Secret","default":null},` +
		`{"id":"days","text":"Valid for how many days?","pre_amble":null,"answer_type":{"Number":{"minimum":0,"maximum":90,"integer":true}},"default":30},` +
		`{"id":"ratio","text":"ratio","pre_amble":null,"answer_type":{"Number":{"minimum":0.5}},"default":null},` +
		`{"id":"admin","text":"admin","pre_amble":null,"answer_type":"Boolean","default":false},` +
		`{"id":"mode","text":"mode","pre_amble":null,"answer_type":{"Select":{"options":["read","write"]}},"default":"read"}]}` + "\n"
	if stdout != want {
		t.Errorf("v2 form mismatch\nwant %s\ngot  %s", want, stdout)
	}
	if _, err := tool.DecodeOutcomeV2([]byte(stdout)); err != nil {
		t.Error(err)
	}

	all := map[string]any{"user": "bob", "token": "s3cret", "days": 7, "ratio": 0.75, "admin": true, "mode": "write"}
	if o := sdktest.Run(t, signIn, nil, &sdktest.Options{Answers: all}); o.Content != "bob 6 7 0.75 true write" {
		t.Errorf("answered = %+v", o)
	}
	bad := map[string]any{"user": "bob", "token": "s3cret", "days": 91, "ratio": 0.75, "admin": true, "mode": "write"}
	if o := sdktest.Run(t, signIn, nil, &sdktest.Options{Answers: bad}); o.Message != `question "days" wants at most 90, got 91` {
		t.Errorf("out of bounds = %+v", o)
	}

	// v1: one question at a time; a secret cannot be asked.
	o := sdktest.Run(t, signIn, nil, &sdktest.Options{Protocol: "1"})
	if o.Type != tool.KindNeedsInput || o.Question.ID != "user" || o.Questions != nil || *o.Question.PreAmble != "Sign in to the registry" {
		t.Errorf("v1 first = %+v", o)
	}
	o = sdktest.Run(t, signIn, nil, &sdktest.Options{Protocol: "1", Answers: map[string]any{"user": "bob"}})
	if !strings.HasPrefix(o.Message, `question "token" needs a Secret answer, which protocol 1 cannot ask`) {
		t.Errorf("v1 secret = %+v", o)
	}
	if o := sdktest.Run(t, signIn, nil, &sdktest.Options{Protocol: "1", Answers: all}); o.Content != "bob 6 7 0.75 true write" {
		t.Errorf("v1 answered = %+v", o)
	}

	type nested struct {
		A []string `json:"a"`
	}
	odd := sdk.New("odd", "Odd.", func(ctx context.Context, in struct{}) (string, error) {
		_, err := sdk.AskForm[nested](ctx, "")
		return "", err
	}, nil)
	if o := sdktest.Run(t, odd, nil, nil); !strings.Contains(o.Message, `field "a" is array: a form field must be a bool, a string or a number`) {
		t.Errorf("array field = %+v", o)
	}
}

func TestAskSecret(t *testing.T) {
	tl := sdk.New("secret", "Secret.", func(ctx context.Context, in struct{}) (string, error) {
		s, err := sdk.AskSecret(ctx, "pw", "Password?")
		return fmt.Sprint(len(s)), err
	}, nil)
	o := sdktest.Run(t, tl, nil, nil)
	if o.Type != tool.KindNeedsInput || o.Question.AnswerType.Kind != tool.AnswerSecret {
		t.Errorf("ask = %+v", o)
	}
	if o := sdktest.Run(t, tl, nil, &sdktest.Options{Answers: map[string]any{"pw": "abc"}}); o.Content != "3" {
		t.Errorf("answered = %+v", o)
	}
	if o := sdktest.Run(t, tl, nil, &sdktest.Options{Answers: map[string]any{"pw": 5}}); o.Message != `question "pw" wants a secret text answer` {
		t.Errorf("bad answer = %+v", o)
	}
}
