package binary

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/toolhost/toolhost/internal/invoke/faketool"
	"github.com/toolhost/toolhost/tool"
)

// fakeLongLived plays a binary that declared long_lived. Started with
// tool.LongLivedEnv it serves requests line by line, each on a goroutine;
// otherwise it answers one request (the one-shot fallback), with
// "one-shot " before its content. The argument "mode" picks the behaviour:
//
//	pid        success "pid N"
//	events     a progress and a log event tagged with the id, then "pid N"
//	wait       an event "waiting", then waits for a "release" call
//	release    releases the waiting calls, then "released"
//	crash      an event, "boom" on stderr, exit 3 mid-call
//	hang       an event "hanging", then never answers, ignores cancel
//	sleep      answers "slept pid N" after 3s, ignores cancel
//	cancelable answers "cancelled" when its cancel comes
//	garbage    prints a line that is no tagged line
//	ask        needs_input "go" until answered, then "went pid N"
//	linger     ignores SIGTERM and, once its stdin ends, lives on; "lingering pid N"
func fakeLongLived() int {
	if os.Getenv(tool.LongLivedEnv) != "1" {
		req := faketool.ReadRequest()
		if req == nil {
			return 2
		}
		if req.Context.Action == tool.ActionSchema {
			fmt.Println(`{"protocol":"2","long_lived":true,"tools":[{"name":"ll","summary":"Long-lived.","input_schema":{"type":"object","properties":{"mode":{"type":"string"}}}}]}`)
			return 0
		}
		mode, _ := req.Tool.Arguments["mode"].(string)
		json.NewEncoder(os.Stdout).Encode(tool.Success("one-shot " + mode))
		return 0
	}
	var (
		mu      sync.Mutex
		cancels = map[string]chan struct{}{}
		release = make(chan struct{})
		once    sync.Once
	)
	write := func(v tool.Tagged) {
		data, _ := json.Marshal(v)
		mu.Lock()
		os.Stdout.Write(append(data, '\n'))
		mu.Unlock()
	}
	answer := func(id string, o tool.Outcome) { write(tool.Tagged{ID: id, Outcome: &o}) }
	event := func(id string, e tool.Event) { write(tool.Tagged{ID: id, Event: &e}) }
	pid := fmt.Sprintf("pid %d", os.Getpid())
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		if id, ok := tool.DecodeCancel(sc.Bytes()); ok {
			mu.Lock()
			if ch := cancels[id]; ch != nil {
				close(ch)
				delete(cancels, id)
			}
			mu.Unlock()
			continue
		}
		req, err := tool.DecodeRequestV2(sc.Bytes())
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		cancel := make(chan struct{})
		mu.Lock()
		cancels[req.ID] = cancel
		mu.Unlock()
		go func() {
			id := req.ID
			mode, _ := req.Tool.Arguments["mode"].(string)
			switch mode {
			case "pid":
				answer(id, tool.Success(pid))
			case "events":
				total := 2.0
				event(id, tool.Event{Type: tool.EventProgress, Progress: 1, Total: &total, Message: "half " + id})
				event(id, tool.Event{Type: tool.EventLog, Level: "info", Message: "log " + id})
				answer(id, tool.Success(pid))
			case "wait":
				event(id, tool.Event{Type: tool.EventLog, Level: "info", Message: "waiting " + id})
				<-release
				answer(id, tool.Success("waited "+pid))
			case "release":
				event(id, tool.Event{Type: tool.EventLog, Level: "info", Message: "releasing " + id})
				once.Do(func() { close(release) })
				answer(id, tool.Success("released "+pid))
			case "crash":
				event(id, tool.Event{Type: tool.EventLog, Level: "info", Message: "about to crash"})
				fmt.Fprintln(os.Stderr, "boom")
				os.Exit(3)
			case "hang":
				event(id, tool.Event{Type: tool.EventLog, Level: "info", Message: "hanging " + id})
				time.Sleep(time.Hour)
			case "sleep":
				time.Sleep(3 * time.Second)
				answer(id, tool.Success("slept "+pid))
			case "cancelable":
				<-cancel
				answer(id, tool.Fail("cancelled"))
			case "garbage":
				mu.Lock()
				fmt.Println("scanning…")
				mu.Unlock()
			case "linger":
				signal.Ignore(syscall.SIGTERM)
				lingering.Store(true)
				answer(id, tool.Success("lingering "+pid))
			case "ask":
				if v, ok := req.Tool.Answers["go"]; ok && v == true {
					answer(id, tool.Success("went "+pid))
					return
				}
				answer(id, tool.Ask(tool.Question{ID: "go", Text: "Go?", AnswerType: tool.AnswerType{Kind: tool.AnswerBoolean}}))
			}
		}()
	}
	if lingering.Load() {
		time.Sleep(time.Hour)
	}
	return 0
}

// lingering is set by the mode "linger" of fakeLongLived.
var lingering atomic.Bool

// fakeMute plays a binary that declares long_lived but does not serve it:
// started with tool.LongLivedEnv too, it reads its stdin to the end (as
// one-shot) and so never answers a long-lived request. One-shot, it
// answers "one-shot MODE".
func fakeMute() int {
	req := faketool.ReadRequest()
	if req == nil {
		return 2
	}
	if req.Context.Action == tool.ActionSchema {
		fmt.Println(`{"protocol":"2","long_lived":true,"tools":[{"name":"ll","summary":"Mute.","input_schema":{"type":"object","properties":{"mode":{"type":"string"}}}}]}`)
		return 0
	}
	mode, _ := req.Tool.Arguments["mode"].(string)
	json.NewEncoder(os.Stdout).Encode(tool.Success("one-shot " + mode))
	return 0
}

// fakeV1Env plays a v1 binary (it cannot declare long_lived) whose run
// answers with the value of tool.LongLivedEnv it was started with.
func fakeV1Env() int {
	data, _ := io.ReadAll(os.Stdin)
	req, err := tool.DecodeRequest(data)
	if err != nil {
		return 2
	}
	if req.Context.Action == tool.ActionSchema {
		fmt.Println(`{"tools":[{"name":"v1","summary":"One-shot.","parameters":{}}]}`)
		return 0
	}
	json.NewEncoder(os.Stdout).Encode(tool.Success(fmt.Sprintf("env=%q pid %d", os.Getenv(tool.LongLivedEnv), os.Getpid())))
	return 0
}
