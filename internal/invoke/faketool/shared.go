package faketool

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
)

// shared are the scenarios several packages need. Each reads its request
// (stdin) to the end first, except where it says otherwise.
var shared = Scenarios{
	// echo-request copies stdin to stdout.
	"echo-request": func() int {
		_, _ = io.Copy(os.Stdout, os.Stdin)
		return 0
	},
	// plain prints plain text, as a command that does not speak the
	// protocol.
	"plain": func() int {
		drain()
		fmt.Println("hello world")
		return 0
	},
	// exit-3 logs to stderr and exits 3.
	"exit-3": func() int {
		drain()
		fmt.Fprintln(os.Stderr, "starting up")
		fmt.Fprintln(os.Stderr, "panic: boom")
		return 3
	},
	// exit-0 exits 0 at once, without reading stdin or printing.
	"exit-0": func() int { return 0 },
	// bad-json prints the start of a JSON answer that never ends.
	"bad-json": func() int {
		drain()
		fmt.Print(`{"tools": [`)
		return 0
	},
	// not-schema answers with JSON that is neither a schema nor an outcome.
	"not-schema": func() int {
		drain()
		fmt.Println(`{"hello":"world"}`)
		return 0
	},
	// hang writes its pid to $FAKETOOL_PIDFILE, if set, and sleeps an
	// hour without reading stdin.
	"hang": func() int {
		if f := os.Getenv(PIDFileEnv); f != "" {
			if err := os.WriteFile(f+".tmp", []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 2
			}
			if err := os.Rename(f+".tmp", f); err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 2
			}
		}
		time.Sleep(time.Hour)
		return 0
	},
	// big prints os.Args[2] times "é✓a" (6 bytes, 3 characters) as plain
	// text, without a newline: a large result of multi-byte text.
	"big": func() int {
		drain()
		n, err := strconv.Atoi(os.Args[2])
		if err != nil {
			fmt.Fprintln(os.Stderr, "big: want a count:", err)
			return 2
		}
		fmt.Print(strings.Repeat(BigUnit, n))
		return 0
	},
	// flood writes to stdout until it is killed (or stdout is closed:
	// then it exits 1).
	// touch appends a line to the file os.Args[2] on each run (touch.go).
	"touch": touch,
	"flood": func() int {
		chunk := []byte(strings.Repeat("x", 64<<10))
		for {
			if _, err := os.Stdout.Write(chunk); err != nil {
				return 1
			}
		}
	},
}

// BigUnit is what the scenario "big" repeats.
const BigUnit = "é✓a"

// drain reads stdin to the end, as a tool reads its request.
func drain() { _, _ = io.Copy(io.Discard, os.Stdin) }
