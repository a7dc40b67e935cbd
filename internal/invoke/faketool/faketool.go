// Package faketool lets a test binary play the tool binaries its tests run.
// That is the os/exec helper-process pattern. It is for tests only. Import
// it from _test.go files, never from a package's code. A test in this
// package checks that.
//
// A package's TestMain hands over its own scenarios. Each is a function
// returning the exit status. It reads its arguments from os.Args[2:]:
//
//	func TestMain(m *testing.M) {
//		faketool.Main(m, faketool.Scenarios{
//			"greet": fakeGreet, // plus the shared "plain", "exit-3", "hang"…
//		})
//	}
//
// A test then runs faketool.Command(t, "greet", "--flag"). Or it writes
// faketool.TOML(t, "greet") into a configuration file.
//
// # How a fake tool is recognised
//
// The test process sets [Env] in its own environment, which every process
// it starts inherits. A process started with [Env] set plays the scenario
// named by its first argument and exits. A process whose first argument is
// a -test. flag, as a fuzz worker's is, runs the tests as usual. A process
// may be started with a scenario's name but without [Env], when a test
// cleared the environment. It exits 98 rather than run the tests again.
//
// The test process also appends atexit_sleep_ms=0 to GORACE. A
// race-enabled child otherwise sleeps 1s at exit.
package faketool

import (
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/toolhost/toolhost/tool"
)

// Env marks a process started by the tests as a fake tool.
const Env = "FAKETOOL_PLAY"

// PIDFileEnv, if set, names the file where "hang" writes its process id
// before it hangs. It writes it atomically, as a test may poll for the
// file.
const PIDFileEnv = "FAKETOOL_PIDFILE"

// Scenarios maps a scenario's name to the function that plays it. The
// function returns the process's exit status; os.Args[1] is the name,
// os.Args[2:] the arguments.
type Scenarios map[string]func() int

// scenarios is every scenario of this test binary, set by Start. It is the
// only state of the package, one per test process, as testing's flags are.
var scenarios Scenarios

// Main is [Start] followed by os.Exit(m.Run()), for a TestMain with nothing
// else to set up.
func Main(m *testing.M, own Scenarios) {
	Start(own)
	os.Exit(m.Run())
}

// Start must be the first call of TestMain. In a process started as a fake
// tool it plays the scenario and exits. Otherwise it registers the shared
// scenarios and own. A name in both is a programming error, and Start
// panics. It sets [Env] and GORACE for the processes the tests start, and
// returns.
func Start(own Scenarios) {
	all := Scenarios{}
	for name, f := range shared {
		all[name] = f
	}
	for name, f := range own {
		if _, dup := all[name]; dup {
			panic("faketool: scenario " + name + " registered twice")
		}
		all[name] = f
	}
	scenarios = all
	if os.Getenv(Env) != "" {
		if len(os.Args) < 2 {
			fmt.Fprintln(os.Stderr, "faketool: started as a fake tool without a scenario")
			os.Exit(2)
		}
		if !strings.HasPrefix(os.Args[1], "-test.") { // fuzz workers run tests
			f := all[os.Args[1]]
			if f == nil {
				fmt.Fprintf(os.Stderr, "faketool: unknown scenario %q\n", os.Args[1])
				os.Exit(2)
			}
			os.Exit(f())
		}
	} else if len(os.Args) > 1 && all[os.Args[1]] != nil {
		fmt.Fprintf(os.Stderr, "faketool: scenario %q started without %s (was the environment cleared?)\n", os.Args[1], Env)
		os.Exit(98)
	}
	os.Setenv(Env, "1")
	os.Setenv("GORACE", strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
}

// Exe returns the test binary's path: the program of every fake tool.
func Exe(t testing.TB) string {
	t.Helper()
	p, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Command returns the command line that plays scenario with args. It fails
// the test if the scenario is not registered.
func Command(t testing.TB, scenario string, args ...string) []string {
	t.Helper()
	if scenarios == nil {
		t.Fatal("faketool: Start was not called in TestMain")
	}
	if scenarios[scenario] == nil {
		t.Fatalf("faketool: unknown scenario %q", scenario)
	}
	return append([]string{Exe(t), scenario}, args...)
}

// TOML returns [Command] as a TOML array, for a tool entry's command.
func TOML(t testing.TB, scenario string, args ...string) string {
	t.Helper()
	argv := Command(t, scenario, args...)
	q := make([]string, len(argv))
	for i, a := range argv {
		q[i] = quote(a)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// quote returns s as a TOML basic string.
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, "\\u%04X", r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// WaitFile waits until path exists (a marker a scenario creates).
func WaitFile(t testing.TB, path string) {
	t.Helper()
	waitFor(t, path+" never appeared", func() bool {
		_, err := os.Stat(path)
		return err == nil
	})
}

// WaitWritten waits until a scenario has written path. That is, until it
// exists and is not empty. os.WriteFile creates the file before it writes.
func WaitWritten(t testing.TB, path string) {
	t.Helper()
	waitFor(t, "fake tool never wrote "+path, func() bool {
		data, err := os.ReadFile(path)
		return err == nil && len(data) > 0
	})
}

// waitFor polls cond every 10 ms. After 10 s the test fails with msg.
// That is a bound for a hang rather than a timing assertion.
func waitFor(t testing.TB, msg string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal(msg)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// ReadRequest reads the request on stdin, of protocol "1" or "2", for a
// scenario that speaks the protocol. When it cannot, it says why on stderr
// and returns nil. The scenario then exits 2, as a binary does with a
// request it cannot read.
func ReadRequest() *tool.Request {
	data, err := io.ReadAll(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return nil
	}
	req, err := tool.DecodeRequestV2(data)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return nil
	}
	return req
}
