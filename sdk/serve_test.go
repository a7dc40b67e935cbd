package sdk_test

import (
	"bufio"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/sdk"
	"github.com/toolhost/toolhost/tool"
)

type gateIn struct {
	Name string `json:"name"`
}

// TestServe drives sdk.Serve as a host drives a long-lived process: two
// calls in flight at once (the first blocks until the second is answered),
// each one's events tagged with its own id, a question answered in a
// second round, a cancel that ends a call's context, and stdin's end that
// ends Serve with ExitOK once every call has answered.
func TestServe(t *testing.T) {
	release := make(chan struct{})
	gate := sdk.New("gate", "Waits.", func(ctx context.Context, in gateIn) (string, error) {
		sdk.Log(ctx, sdk.LevelInfo, "start "+in.Name)
		switch in.Name {
		case "first":
			<-release
		case "stuck":
			<-ctx.Done()
			return "", ctx.Err()
		case "ask":
			ok, err := sdk.Confirm(ctx, "go", "Go?", false)
			if err != nil {
				return "", err
			}
			if ok {
				return "went", nil
			}
		}
		return "done " + in.Name, nil
	}, nil)

	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	code := make(chan int, 1)
	go func() {
		code <- sdk.Serve(t.Context(), inR, outW, io.Discard, gate)
		outW.Close()
	}()
	lines := bufio.NewScanner(outR)
	send := func(s string) {
		if _, err := io.WriteString(inW, s+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	next := func() tool.Tagged {
		t.Helper()
		if !lines.Scan() {
			t.Fatalf("stdout ended: %v", lines.Err())
		}
		tg, err := tool.DecodeTagged(lines.Bytes())
		if err != nil {
			t.Fatalf("line %s: %v", lines.Bytes(), err)
		}
		return tg
	}
	call := func(id, name, answers string) string {
		return `{"id":"` + id + `","protocol":"2","context":{"action":"run","root":"/r"},"tool":{"name":"gate","arguments":{"name":"` + name + `"}` + answers + `}}`
	}

	send(call("1", "first", ""))
	if tg := next(); tg.ID != "1" || tg.Event == nil || tg.Event.Message != "start first" {
		t.Fatalf("first line %+v, want the log event of call 1", tg)
	}
	send(call("2", "second", ""))
	if tg := next(); tg.ID != "2" || tg.Event == nil || tg.Event.Message != "start second" {
		t.Fatalf("got %+v, want the log event of call 2", tg)
	}
	if tg := next(); tg.ID != "2" || tg.Outcome == nil || tg.Outcome.Content != "done second" {
		t.Fatalf("got %+v, want call 2's outcome while call 1 is in flight", tg)
	}
	close(release)
	if tg := next(); tg.ID != "1" || tg.Outcome == nil || tg.Outcome.Content != "done first" {
		t.Fatalf("got %+v, want call 1's outcome", tg)
	}

	send(call("3", "ask", ""))
	next() // its log
	if tg := next(); tg.ID != "3" || tg.Outcome == nil || tg.Outcome.Type != tool.KindNeedsInput {
		t.Fatalf("got %+v, want a question", tg)
	}
	send(call("4", "ask", `,"answers":{"go":true}`))
	next()
	if tg := next(); tg.ID != "4" || tg.Outcome == nil || tg.Outcome.Content != "went" {
		t.Fatalf("got %+v, want the answered call's outcome", tg)
	}

	send(call("5", "stuck", ""))
	next()
	send(`{"cancel":"5"}`)
	if tg := next(); tg.ID != "5" || tg.Outcome == nil || !strings.Contains(tg.Outcome.Message, "context canceled") {
		t.Fatalf("got %+v, want call 5 ended by its cancel", tg)
	}

	send(`{"id":"6","protocol":"9"}`)
	if tg := next(); tg.ID != "6" || tg.Outcome == nil || !tg.Outcome.IsError() {
		t.Fatalf("got %+v, want an error outcome for a bad request", tg)
	}
	inW.Close()
	if c := <-code; c != sdk.ExitOK {
		t.Errorf("Serve returned %d at the end of stdin, want %d", c, sdk.ExitOK)
	}
}
