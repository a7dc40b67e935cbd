package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/toolhost/toolhost/internal/invoke/faketool"

	"github.com/toolhost/toolhost/tool"
)

// fakeTools are the tool binaries the test binary plays (see faketool)
// besides the shared ones.
var fakeTools = faketool.Scenarios{
	"greet":       fakeGreet,     // one self-describing tool: greet(name, shout=false); asks before greeting "root"
	"multi":       fakeMulti,     // two tools: alpha and beta
	"no-schema":   fakeNoSchema,  // prints garbage and exits 3
	"greet-desc":  fakeGreetDesc, // greet, with a summary taken from $FAKE_SUMMARY
	"slow-greet":  fakeSlowGreet, // greet, after 600ms
	"note":        fakeNote,      // note(): asks "text" (Text), then for text "two" also "sure" (Boolean)
	"script":      fakeScript,    // like `python3 FILE`: greet when FILE (os.Args[2]) exists from the working directory, else exit 2
	"echo":        fakeEcho,      // runs any tool (its parameters declared in TOML): success with the argument "text"
	"describe":    fakeDescribe,  // one tool "described", its summary read from the file $FAKE_DESC_FILE at each request
	"v2":          fakeV2,        // protocol v2: tool "count" prints two progress events, then a structured success
	"schematouch": fakeTouch,     // greet, after sending a datagram to os.Args[2] (see udpMarker): a command that acts when merely asked its schema
}

func fakeV2() int {
	req := faketool.ReadRequest()
	if req == nil {
		return 2
	}
	if req.Context.Action == tool.ActionSchema {
		fmt.Print(`{"protocol":"2","tools":[{"name":"count","summary":"Count.","input_schema":{"type":"object","properties":{}},` +
			`"output_schema":{"type":"object","properties":{"n":{"type":"integer"}}}},` +
			`{"name":"login","summary":"Log in.","input_schema":{"type":"object","properties":{}}}]}`)
		return 0
	}
	if req.Tool.Name == "login" { // two questions at once: a secret and a number
		token, ok1 := req.Tool.Answers["token"].(string)
		n, ok2 := req.Tool.Answers["n"]
		if !ok1 || !ok2 {
			fmt.Println(`{"type":"needs_input","questions":[{"id":"token","text":"API token?","pre_amble":null,"answer_type":"Secret","default":null},` +
				`{"id":"n","text":"How many?","pre_amble":null,"answer_type":{"Number":{"minimum":1,"maximum":9,"integer":true}},"default":null}]}`)
			return 0
		}
		fmt.Printf(`{"type":"success","content":"token of %d characters, n=%v"}`+"\n", len(token), n)
		return 0
	}
	fmt.Println(`{"type":"progress","progress":1,"total":2,"message":"one"}`)
	fmt.Println(`{"type":"progress","progress":2,"total":2,"message":"two"}`)
	fmt.Println(`{"type":"success","structured":{"n":2}}`)
	return 0
}

// descFileEnv names the file "describe" reads its summary from.
const descFileEnv = "FAKE_DESC_FILE"

func fakeEcho() int {
	return fakeServe(nil, func(req *tool.Request) tool.Outcome {
		text, _ := req.Tool.Arguments["text"].(string)
		return tool.Success(text)
	})
}

func fakeDescribe() int {
	desc, _ := os.ReadFile(os.Getenv(descFileEnv))
	defs := []tool.Definition{{Name: "described", Summary: strings.TrimSpace(string(desc)), Parameters: map[string]*tool.Parameter{}}}
	return fakeServe(defs, func(req *tool.Request) tool.Outcome { return tool.Success(req.Tool.Name) })
}

func fakeNote() int {
	return fakeServe([]tool.Definition{{Name: "note", Summary: "Take a note."}}, func(req *tool.Request) tool.Outcome {
		text, ok := req.Tool.Answers["text"].(string)
		if !ok {
			return tool.Ask(tool.Question{ID: "text", Text: "What to note?", AnswerType: tool.Text})
		}
		if text == "two" {
			if sure, ok := req.Tool.Answers["sure"].(bool); !ok {
				return tool.Ask(tool.Question{ID: "sure", Text: "Sure?", AnswerType: tool.Boolean})
			} else if sure {
				text += " (sure)"
			}
		}
		return tool.Success("note: " + text)
	})
}

func fakeScript() int {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: script FILE")
		return 2
	}
	if _, err := os.Stat(os.Args[2]); err != nil {
		io.ReadAll(os.Stdin)
		fmt.Fprintf(os.Stderr, "script: can't open file %q: [Errno 2] No such file or directory\n", os.Args[2])
		return 2
	}
	return fakeGreet()
}

func fakeSlowGreet() int {
	time.Sleep(600 * time.Millisecond)
	return fakeGreet()
}

func fakeServe(defs []tool.Definition, run func(*tool.Request) tool.Outcome) int {
	data, err := io.ReadAll(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	req, err := tool.DecodeRequest(data)
	if err != nil {
		json.NewEncoder(os.Stdout).Encode(tool.Fail(err.Error()))
		return 1
	}
	var out any
	switch req.Context.Action {
	case tool.ActionSchema:
		out = tool.SchemaResponse{Tools: defs}
	case tool.ActionFormatArguments:
		out = tool.Success(fmt.Sprintf("%s for %v", req.Tool.Name, req.Tool.Arguments["name"]))
	default:
		out = run(req)
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	return 0
}

func greetDef(summary string) tool.Definition {
	f := false
	return tool.Definition{
		Name:    "greet",
		Summary: summary,
		Parameters: map[string]*tool.Parameter{
			"name":  {Type: tool.Types{"string"}, Summary: "Who to greet."},
			"shout": {Type: tool.Types{"boolean"}, Default: f},
		},
	}
}

func greetRun(req *tool.Request) tool.Outcome {
	name, _ := req.Tool.Arguments["name"].(string)
	if name == "root" {
		ok, answered := req.Tool.Answers["sure"].(bool)
		if !answered {
			return tool.Ask(tool.Question{ID: "sure", Text: "Greet root?", AnswerType: tool.Boolean})
		}
		if !ok {
			return tool.Fail("not greeting root")
		}
	}
	if name == "admin" {
		ok, answered := req.Tool.Answers["admin"].(bool)
		if !answered {
			return tool.Ask(tool.Question{ID: "admin", Text: "Greet admin?", AnswerType: tool.Boolean, Default: true})
		}
		if !ok {
			return tool.Fail("not greeting admin")
		}
	}
	if name == "painter" {
		colour, answered := req.Tool.Answers["colour"].(string)
		if !answered {
			pre := "Painters like colours."
			return tool.Ask(tool.Question{ID: "colour", Text: "Which colour?", PreAmble: &pre, AnswerType: tool.Select("red", "green")})
		}
		return tool.Success("Hello, " + colour + " painter!")
	}
	if name == "" {
		return tool.Fail("nobody to greet")
	}
	return tool.Success("Hello, " + name + "!")
}

func fakeTouch() int {
	c, err := net.Dial("udp", os.Args[2])
	if err != nil {
		return 3
	}
	fmt.Fprintln(c, "ran")
	c.Close()
	return fakeGreet()
}

// udpMarker is where the schematouch scenario reports that it ran: a
// loopback UDP port: a schema request runs read-only and without network,
// but these tests let it open UDP sockets (see TestMain). ran reports whether a report came since its
// previous call, waiting a little for one (loopback delivery may lag the
// tool's exit).
func udpMarker(t *testing.T) (addr string, ran func() bool) {
	c, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	buf := make([]byte, 64)
	return c.LocalAddr().String(), func() bool {
		got := false
		for {
			c.SetReadDeadline(time.Now().Add(20 * time.Millisecond))
			if _, _, err := c.ReadFrom(buf); err != nil {
				return got
			}
			got = true
		}
	}
}

func fakeGreet() int { return fakeServe([]tool.Definition{greetDef("Greet someone.")}, greetRun) }

func fakeGreetDesc() int {
	return fakeServe([]tool.Definition{greetDef(os.Getenv("FAKE_SUMMARY"))}, greetRun)
}

func fakeMulti() int {
	return fakeServe([]tool.Definition{
		{Name: "alpha", Summary: "First."},
		{Name: "beta", Summary: "Second."},
	}, func(req *tool.Request) tool.Outcome { return tool.Success(req.Tool.Name) })
}

func fakeNoSchema() int {
	io.ReadAll(os.Stdin)
	fmt.Println("usage: no-schema FILE")
	fmt.Fprintln(os.Stderr, "no-schema: missing FILE")
	return 3
}
