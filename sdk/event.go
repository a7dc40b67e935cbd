package sdk

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"sync"

	"github.com/toolhost/toolhost/tool"
)

// Level is the level of a [Log] message. It is one of tool.LogLevels, the
// names of MCP and RFC 5424.
type Level string

// Log levels, least severe first.
const (
	LevelDebug     Level = "debug"
	LevelInfo      Level = "info"
	LevelNotice    Level = "notice"
	LevelWarning   Level = "warning"
	LevelError     Level = "error"
	LevelCritical  Level = "critical"
	LevelAlert     Level = "alert"
	LevelEmergency Level = "emergency"
)

// events writes the event lines of one call (protocol v2) to stdout. It
// writes one whole line per Write. It stops when the call ends, so that the
// outcome is the last line. It is safe for concurrent use.
type events struct {
	v2     bool      // the request is protocol v2: events go to stdout
	id     string    // long-lived mode: the request's id, which tags each line
	stdout io.Writer // fixed at creation
	stderr io.Writer // where Log writes for a v1 request

	mu     sync.Mutex
	closed bool    // the call ended: nothing more is written
	last   float64 // the last progress written
	err    error   // the first write error
}

type eventsKey struct{}

func withEvents(ctx context.Context, e *events) context.Context {
	return context.WithValue(ctx, eventsKey{}, e)
}

// close stops e. Events sent afterwards, by goroutines the tool left
// running, are dropped.
func (e *events) close() {
	e.mu.Lock()
	e.closed = true
	e.mu.Unlock()
}

// write writes one event line, unless e is closed or a write failed.
func (e *events) write(ev tool.Event) {
	var v any = ev
	if e.id != "" {
		v = tool.Tagged{ID: e.id, Event: &ev}
	}
	data, err := encode(v)
	if err != nil {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed || e.err != nil {
		return
	}
	if ev.Type == tool.EventProgress {
		if ev.Progress < e.last {
			return // progress increases: a late report from another goroutine is dropped
		}
		e.last = ev.Progress
	}
	if _, err := e.stdout.Write(data); err != nil {
		e.err = err
		return
	}
	if f, ok := e.stdout.(interface{ Flush() error }); ok {
		if err := f.Flush(); err != nil {
			e.err = err
		}
	}
}

// Progress reports how far the call has got: done out of total, with an
// optional message. A total ≤ 0 means the total is unknown. Hosts forward
// it live. It becomes an MCP progress notification when the client asked
// for them, or the progress line of `toolhost call` on a terminal.
//
// For a protocol v2 request it writes one event line to stdout at once.
// Package tool describes it under "Protocol v2". For a v1 request, and
// outside [Run], it does nothing. Progress must increase. A report below
// the previous one is dropped, as is a negative, NaN or infinite one.
// After the tool function returns, reports from goroutines it left running
// are dropped. Progress is safe for concurrent use.
func Progress(ctx context.Context, done, total float64, msg string) {
	e, _ := ctx.Value(eventsKey{}).(*events)
	if e == nil || !e.v2 || done < 0 || math.IsNaN(done) || math.IsInf(done, 0) {
		return
	}
	ev := tool.Event{Type: tool.EventProgress, Progress: done, Message: msg}
	if total > 0 && !math.IsInf(total, 0) {
		ev.Total = &total
	}
	e.write(ev)
}

// Log sends a log message to the host at level. The level is one of the
// Level constants. An unknown level is sent as "info". Hosts forward it
// live. It becomes an MCP log notification where the client's protocol has
// them, or a line on the terminal of `toolhost call`.
//
// For a protocol v2 request it writes one event line to stdout at once.
// For a v1 request, and outside [Run], it writes "level: msg" to stderr
// instead. Hosts keep stderr for error reports. Messages sent after the
// tool function returns are dropped. Log is safe for concurrent use.
func Log(ctx context.Context, level Level, msg string) {
	if !slices.Contains(tool.LogLevels, string(level)) {
		level = LevelInfo
	}
	e, _ := ctx.Value(eventsKey{}).(*events)
	switch {
	case e == nil:
		fmt.Fprintf(os.Stderr, "%s: %s\n", level, msg)
	case !e.v2:
		e.mu.Lock()
		defer e.mu.Unlock()
		if !e.closed {
			fmt.Fprintf(e.stderr, "%s: %s\n", level, msg)
		}
	default:
		e.write(tool.Event{Type: tool.EventLog, Level: string(level), Message: msg})
	}
}
