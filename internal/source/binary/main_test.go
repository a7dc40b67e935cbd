package binary

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/internal/invoke/faketool"
	"github.com/toolhost/toolhost/internal/invoke/sandbox"

	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/tool"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata")

// TestMain lets the test binary play the fake tools: faketool's shared
// ones ("plain", "exit-3", "bad-json", "not-schema", "hang", "flood") and
// those of fakeTool.
func TestMain(m *testing.M) {
	own := faketool.Scenarios{}
	for _, name := range []string{"multi", "raw-args", "slow-first", "v2", "greet", "sleepy", "versioned", "old-protocol", "bad-name"} {
		own[name] = func() int { return fakeTool(os.Args[1:]) }
	}
	own["plain-touch"] = fakePlainTouch
	own["format-writes"] = fakeFormatWrites
	own["long-lived"] = fakeLongLived
	own["long-lived-mute"] = fakeMute
	own["v1-env"] = fakeV1Env
	own["deaf-later"] = fakeDeafLater
	own["secret-argv"] = fakeSecretArgv
	sandbox.AllowProbeUDPForTest() // fakeTool counts schema requests by datagram
	faketool.Main(m, own)
}

// exe is the test binary, which the entries of the tests run.
func exe(t testing.TB) string { return faketool.Exe(t) }

// fakeTool acts as the tool args[0] ("scenario"). Every schema request is
// counted as one UDP datagram to $RESOLVER_TEST_COUNTER (a loopback
// address), if set: a schema request runs read-only and without network,
// but these tests let it open UDP sockets (see TestMain).
func fakeTool(args []string) int {
	data, _ := io.ReadAll(os.Stdin)
	req, err := tool.DecodeRequest(data)
	if args[0] == "v2" {
		req, err = tool.DecodeRequestV2(data)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "fake tool:", err)
		return 2
	}
	if req.Context.Action == tool.ActionSchema {
		if addr := os.Getenv("RESOLVER_TEST_COUNTER"); addr != "" {
			sendLine(addr, strings.Join(args, " "))
		}
	}
	reply := func(v any) int {
		json.NewEncoder(os.Stdout).Encode(v)
		return 0
	}
	switch args[0] {
	case "multi": // ten tools t0..t9; run echoes its request
		if req.Context.Action == tool.ActionSchema {
			var resp tool.SchemaResponse
			for i := range 10 {
				resp.Tools = append(resp.Tools, tool.Definition{
					Name:    fmt.Sprintf("t%d", i),
					Summary: fmt.Sprintf("Tool %d of %s.", i, strings.Join(args[1:], " ")),
					Parameters: map[string]*tool.Parameter{
						"path":  {Type: tool.Types{"string"}, Summary: "A path."},
						"limit": {Type: tool.Types{"integer"}, Default: 10.0},
					},
				})
			}
			return reply(resp)
		}
		if req.Context.Action == tool.ActionFormatArguments {
			return reply(tool.Success("fmt " + req.Tool.Name + " " + compact(req.Tool.Arguments)))
		}
		return reply(tool.Success(compact(req.Tool)))
	case "v2": // protocol v2: args[1] picks what run prints (events, structured, …)
		if req.Context.Action == tool.ActionSchema {
			fmt.Print(`{"protocol":"2","tools":[{"name":"grep","title":"Grep files","summary":"Search.",` +
				`"icons":[{"src":"data:image/png;base64,AA==","mime_type":"image/png"}],` +
				`"input_schema":{"type":"object","$defs":{"glob":{"type":"string","minLength":1}},"properties":{"pattern":{"type":"string"},"glob":{"$ref":"#/$defs/glob"}},"required":["pattern"]},` +
				`"output_schema":{"type":"object","properties":{"matches":{"type":"array","items":{"type":"object","properties":{"line":{"type":"integer"}},"required":["line"]}}},"required":["matches"]}}]}`)
			return 0
		}
		switch args[1] {
		case "events":
			fmt.Printf(`{"type":"progress","progress":1,"total":2,"message":"a.go"}` + "\n" + `{"type":"log","level":"warning","message":"skipped bin"}` + "\n" +
				`{"type":"success","structured":{"matches":[{"line":9007199254740993}]}}` + "\n")
		case "mismatch":
			fmt.Println(`{"type":"success","structured":{"matches":[{"line":"twelve"}]}}`)
		case "no-structured":
			fmt.Println(`{"type":"success","content":"x"}`)
		case "log-on-stdout":
			fmt.Println("scanning…")
			fmt.Println(`{"type":"success","structured":{"matches":[]}}`)
		case "protocol":
			fmt.Printf(`{"type":"success","structured":{"matches":[]},"content":%q}`+"\n", req.Protocol)
		}
		return 0
	case "slow-first": // args[1] is a marker file the test makes: schema requests hang until it exists, then answer
		if req.Context.Action == tool.ActionSchema {
			if _, err := os.Stat(args[1]); err != nil {
				time.Sleep(time.Minute)
			}
			return reply(tool.SchemaResponse{Tools: []tool.Definition{{Name: "late", Summary: "Answers on the second ask.", Parameters: map[string]*tool.Parameter{}}}})
		}
		return reply(tool.Success("late"))
	case "raw-args": // plain (parameters in TOML): prints the arguments exactly as they came on stdin
		var raw struct {
			Tool struct {
				Arguments json.RawMessage `json:"arguments"`
			} `json:"tool"`
		}
		json.Unmarshal(data, &raw)
		fmt.Print(string(raw.Tool.Arguments))
		return 0
	case "greet": // one tool that asks before greeting many times
		if req.Context.Action == tool.ActionSchema {
			return reply(tool.SchemaResponse{Tools: []tool.Definition{{
				Name: "greet", Summary: "Greet someone.", Description: "Says hello.",
				Parameters: map[string]*tool.Parameter{
					"name":  {Type: tool.Types{"string"}, Summary: "Who to greet."},
					"loud":  {Type: tool.Types{"boolean"}, Default: true},
					"times": {Type: tool.Types{"integer"}, Default: 1.0, Minimum: ptr(1.0)},
				},
				Annotations: map[string]any{"readOnlyHint": true},
			}}})
		}
		if req.Context.Action == tool.ActionFormatArguments {
			return reply(tool.Fail("no formatter"))
		}
		if req.Tool.Arguments["name"] == "question" {
			for _, id := range []string{"first", "second"} {
				if _, ok := req.Tool.Answers[id]; !ok {
					return reply(tool.Ask(tool.Question{ID: id, Text: "Sure about " + id + "?", AnswerType: tool.Boolean, Default: false}))
				}
			}
		}
		if req.Tool.Arguments["name"] == "nodefault" {
			if _, ok := req.Tool.Answers["who"]; !ok {
				return reply(tool.Ask(tool.Question{ID: "who", Text: "Who?", AnswerType: tool.Text}))
			}
		}
		if req.Tool.Arguments["name"] == "forever" {
			return reply(tool.Ask(tool.Question{ID: fmt.Sprint(len(req.Tool.Answers)), Text: "Again?", AnswerType: tool.Boolean, Default: true}))
		}
		return reply(tool.Success(fmt.Sprintf("Hello, %v (times=%v, answers=%s, options=%s)",
			req.Tool.Arguments["name"], req.Tool.Arguments["times"], compact(req.Tool.Answers), compact(req.Tool.Options))))
	case "sleepy": // a slow schema answer, logged as start and end datagrams to $RESOLVER_TEST_TRACE (see fakeTool)
		if addr := os.Getenv("RESOLVER_TEST_TRACE"); addr != "" && req.Context.Action == tool.ActionSchema {
			sendLine(addr, fmt.Sprint(time.Now().UnixNano(), " start")) // stamped: datagrams of two processes may arrive out of order
			time.Sleep(300 * time.Millisecond)
			sendLine(addr, fmt.Sprint(time.Now().UnixNano(), " end"))
		}
		return reply(tool.SchemaResponse{Tools: []tool.Definition{{Name: "s", Summary: "Sleepy."}}})
	case "versioned": // describes itself with its own size, so a rebuild shows
		fi, _ := os.Stat(os.Args[0])
		if req.Context.Action == tool.ActionSchema {
			return reply(tool.SchemaResponse{Tools: []tool.Definition{{Name: "v", Summary: fmt.Sprintf("Version %d.", fi.Size())}}})
		}
		return reply(tool.Success("ok"))
	case "old-protocol": // a binary that speaks another version answers with an error outcome
		reply(tool.Fail(`unsupported protocol version "1": this binary speaks protocol "0"`))
		return 2
	case "bad-name": // a tool name LLM providers reject
		return reply(tool.SchemaResponse{Tools: []tool.Definition{{Name: "fs.read", Summary: "Bad name."}, {Name: "ok", Summary: "Fine."}}})
	}
	fmt.Fprintln(os.Stderr, "fake tool: unknown scenario", args)
	return 2
}

// fakePlainTouch is a plain command, plain-touch PATH: whatever its stdin says, it
// creates PATH and prints nothing.
func fakePlainTouch() int {
	if err := os.WriteFile(os.Args[2], nil, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// fakeFormatWrites describes one tool, w; asked to format a call's
// arguments it writes PATH (os.Args[2]) and renders them.
func fakeFormatWrites() int {
	data, _ := io.ReadAll(os.Stdin)
	req, err := tool.DecodeRequest(data)
	if err != nil {
		return 2
	}
	switch req.Context.Action {
	case tool.ActionSchema:
		json.NewEncoder(os.Stdout).Encode(tool.SchemaResponse{Tools: []tool.Definition{{Name: "w", Summary: "Writes when formatting.", Parameters: map[string]*tool.Parameter{}}}})
	case tool.ActionFormatArguments:
		if err := os.WriteFile(os.Args[2], []byte("formatted"), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		json.NewEncoder(os.Stdout).Encode(tool.Success("rendered by w"))
	default:
		json.NewEncoder(os.Stdout).Encode(tool.Success("ran"))
	}
	return 0
}

// sendLine sends line as one UDP datagram to addr.
func sendLine(addr, line string) {
	if c, err := net.Dial("udp", addr); err == nil {
		fmt.Fprintln(c, line)
		c.Close()
	}
}

func compact(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func itoa(n int64) string { return fmt.Sprint(n) }

func ptr[T any](v T) *T { return &v }

// parse parses TOML as the configuration file "test.toml"; %EXE% stands for
// the test binary.
func parse(t testing.TB, text string) *config.Config {
	t.Helper()
	text = strings.ReplaceAll(text, "%EXE%", exe(t))
	cfg, err := config.Parse("test.toml", []byte(text))
	if err != nil {
		t.Fatalf("config:\n%s\n%v", text, err)
	}
	return cfg
}

// counter returns the address of a schema request counter (see fakeTool)
// and a function reading its count.
func counter(t testing.TB) (string, func() int) {
	addr, lines := datagrams(t)
	return addr, func() int { return len(lines()) }
}

// datagrams listens on a loopback UDP port and returns its address and a
// function returning the lines received so far, in order, each waited for
// a little (loopback delivery may lag the tool's exit).
func datagrams(t testing.TB) (string, func() []string) {
	c, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	var got []string
	buf := make([]byte, 512)
	return c.LocalAddr().String(), func() []string {
		for {
			c.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
			n, _, err := c.ReadFrom(buf)
			if err != nil {
				return got
			}
			got = append(got, strings.TrimSuffix(string(buf[:n]), "\n"))
		}
	}
}

// shown is err's message followed by its fix, as the faces show them.
func shown(err error) string {
	if err == nil {
		return ""
	}
	if fix := catalog.FixOf(err); fix != "" {
		return err.Error() + "\nfix: " + fix
	}
	return err.Error()
}

// fakeDeafLater hangs on its schema requests, each after sending its pid
// to the UDP address $DEAF_ADDR (not an argument, which would be part of
// the binary's stat key); it ignores SIGTERM when the answer says "deaf".
// A run answers at once.
func fakeDeafLater() int {
	req := faketool.ReadRequest()
	if req == nil || req.Context.Action != tool.ActionSchema {
		fmt.Println(`{"type":"success","content":"deaf"}`)
		return 0
	}
	// The test answers the pid with "deaf" for a request asked again.
	if c, err := net.Dial("udp", os.Getenv("DEAF_ADDR")); err == nil {
		fmt.Fprintln(c, os.Getpid())
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		buf := make([]byte, 16)
		if n, _ := c.Read(buf); string(buf[:n]) == "deaf" {
			signal.Ignore(syscall.SIGTERM)
		}
		c.Close()
	}
	time.Sleep(time.Hour)
	return 0
}

// fakeSecretArgv asks faketool's Secret question and, once answered,
// says whether its argv and its stdin request hold the answer.
func fakeSecretArgv() int {
	req := faketool.ReadRequest()
	if req == nil {
		return 2
	}
	if req.Context.Action == tool.ActionSchema {
		fmt.Println(faketool.AskSecretSchema)
		return 0
	}
	answer, ok := req.Tool.Answers["password"].(string)
	if !ok {
		fmt.Println(faketool.AskSecretQuestion)
		return 0
	}
	out, _ := json.Marshal(tool.Success(fmt.Sprintf("argv holds it: %v; stdin holds it: %v",
		strings.Contains(strings.Join(os.Args[2:], " "), answer), answer != "")))
	fmt.Println(string(out))
	return 0
}
