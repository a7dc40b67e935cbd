package invoke

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/toolhost/toolhost/internal/invoke/faketool"
)

// pgidFileEnv names the file where "hang-ignore-term" writes its process
// group id.
const pgidFileEnv = "INVOKE_TEST_PGID_FILE"

// fakeTools are the misbehaving tools the test binary plays besides
// faketool's shared ones ("echo-request", "plain", "exit-3", "exit-0",
// "flood"...). Each returns the exit status.
var fakeTools = faketool.Scenarios{
	// lines prints 1000 lines of 200 bytes ("line 1 xxx…"), one write
	// each, then "end", and exits at once.
	"lines": func() int {
		_, _ = io.Copy(io.Discard, os.Stdin)
		for i := 1; i <= 1000; i++ {
			fmt.Println(lineOf(i))
		}
		fmt.Println("end")
		return 0
	},
	// hang-ignore-term ignores SIGTERM, writes its process group id to the
	// file named by $INVOKE_TEST_PGID_FILE, starts a grandchild `sleep 300`
	// (which inherits the ignored SIGTERM) holding stdout open, and sleeps.
	"hang-ignore-term": func() int {
		signal.Ignore(syscall.SIGTERM)
		grand := exec.Command("sleep", "300")
		grand.Stdout = os.Stdout
		if err := grand.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		pgid, _ := syscall.Getpgid(0)
		data := fmt.Sprintf("%d %d", pgid, grand.Process.Pid)
		if err := os.WriteFile(os.Getenv(pgidFileEnv), []byte(data), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		fmt.Fprintln(os.Stderr, "hanging")
		time.Sleep(time.Hour)
		return 0
	},
	// leave-grandchild exits at once but leaves a grandchild holding stdout.
	"leave-grandchild": func() int {
		grand := exec.Command("sleep", "300")
		grand.Stdout = os.Stdout
		if err := grand.Start(); err != nil {
			return 2
		}
		pgid, _ := syscall.Getpgid(0)
		_ = os.WriteFile(os.Getenv(pgidFileEnv), []byte(fmt.Sprintf("%d %d", pgid, grand.Process.Pid)), 0o644)
		fmt.Println("partial")
		return 0
	},
	// daemonize double-forks a daemon out of its process group, as a
	// daemon does (fork, setsid, fork): it starts "daemon-mid", which
	// starts "daemon-sleep" in a new session, writes its pid to
	// $INVOKE_TEST_PGID_FILE and exits. Then it exits, or with the
	// argument "hang" sleeps.
	"daemonize": func() int {
		mid := exec.Command(os.Args[0], "daemon-mid")
		if err := mid.Run(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		fmt.Println("started")
		if len(os.Args) > 2 && os.Args[2] == "hang" {
			time.Sleep(time.Hour)
		}
		return 0
	},
	"daemon-mid": func() int {
		d := exec.Command(os.Args[0], "daemon-sleep")
		d.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		if err := d.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		if err := os.WriteFile(os.Getenv(pgidFileEnv), []byte(strconv.Itoa(d.Process.Pid)), 0o644); err != nil {
			return 2
		}
		return 0 // orphans the daemon
	},
	"daemon-sleep": func() int {
		time.Sleep(time.Hour)
		return 0
	},
	// orphan-zombie leaves an orphan that dies during the call: its
	// middle process starts "exit-0" in a new session and exits, and it
	// waits until the orphan is a zombie (of whoever adopted it), writes
	// its pid to $INVOKE_TEST_PGID_FILE and exits.
	"orphan-zombie": func() int {
		mid := exec.Command(os.Args[0], "orphan-mid")
		out, err := mid.Output()
		if err != nil {
			return 2
		}
		pid := strings.TrimSpace(string(out))
		for range 500 {
			if n, _ := strconv.Atoi(pid); procState(n) == "Z" {
				_ = os.WriteFile(os.Getenv(pgidFileEnv), []byte(pid), 0o644)
				return 0
			}
			time.Sleep(10 * time.Millisecond)
		}
		fmt.Fprintln(os.Stderr, "the orphan never died")
		return 2
	},
	"orphan-mid": func() int {
		d := exec.Command(os.Args[0], "exit-0")
		d.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		if err := d.Start(); err != nil {
			return 2
		}
		fmt.Println(d.Process.Pid)
		return 0
	},
	// noisy-stderr writes 200 KiB of numbered lines to stderr, then exits 1.
	"noisy-stderr": func() int {
		for i := 0; i < 200<<10/20; i++ {
			fmt.Fprintf(os.Stderr, "noise line %08d\n", i)
		}
		fmt.Fprintln(os.Stderr, "LAST LINE")
		return 1
	},
	// print-argv prints its arguments as a JSON array.
	"print-argv": func() int {
		_ = json.NewEncoder(os.Stdout).Encode(os.Args[2:])
		return 0
	},
	// print-env prints its environment as a JSON array.
	"print-env": func() int {
		_ = json.NewEncoder(os.Stdout).Encode(os.Environ())
		return 0
	},
	// pwd prints its working directory.
	"pwd": func() int {
		wd, err := os.Getwd()
		if err != nil {
			return 2
		}
		fmt.Print(wd)
		return 0
	},
}

func TestMain(m *testing.M) {
	faketool.Start(fakeTools)
	// As the toolhost command does: orphans of the tools come back to the
	// test process, which Run must then reap (every test runs so).
	if err := EnableSubreaper(); err != nil {
		fmt.Fprintln(os.Stderr, "EnableSubreaper:", err)
		os.Exit(2)
	}
	os.Exit(m.Run())
}

// self returns the test binary's path, which plays the fake tools.
func self(t testing.TB) string { return faketool.Exe(t) }

// readPgid reads what a hanging fake tool wrote to file: its process group
// and its grandchild's pid.
func readPgid(t *testing.T, file string) (pgid, grandchild int) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("fake tool wrote no pgid: %v", err)
	}
	f := strings.Fields(string(data))
	if len(f) != 2 {
		t.Fatalf("pgid file %q", data)
	}
	pgid, _ = strconv.Atoi(f[0])
	grandchild, _ = strconv.Atoi(f[1])
	return pgid, grandchild
}

// waitGone fails the test when a process of group pgid is still alive.
// It waits up to 3 s for kill(-pgid, 0) to report ESRCH; members that are
// dead but not yet reaped (zombies, which an init that reaps slowly may
// leave for a second or two) count as gone.
func waitGone(t *testing.T, pgid int) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for {
		err := syscall.Kill(-pgid, 0)
		if err == syscall.ESRCH {
			return
		}
		alive := liveMembers(pgid)
		if time.Now().After(deadline) {
			if len(alive) == 0 {
				t.Logf("process group %d: only zombies left (kill(-pgid, 0) = %v), waiting on init to reap them", pgid, err)
				return
			}
			t.Fatalf("process group %d survived Run: live members %v", pgid, alive)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// liveMembers lists "pid state" of the processes of group pgid that are
// not zombies, from /proc.
func liveMembers(pgid int) []string {
	var alive []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		data, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...; comm may hold spaces.
		s := string(data)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(f) > 2 && f[2] == strconv.Itoa(pgid) && f[0] != "Z" {
			alive = append(alive, e.Name()+" "+f[0])
		}
	}
	return alive
}

// procState returns the state letter of process pid ("Z" for a zombie), or
// "" when it does not exist.
func procState(pid int) string {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return ""
	}
	s := string(data)
	if f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:]); len(f) > 0 {
		return f[0]
	}
	return ""
}

// readPid reads the pid a fake tool wrote to file.
func readPid(t *testing.T, file string) int {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("fake tool wrote no pid: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatalf("pid file %q", data)
	}
	return pid
}

// waitPidGone fails the test unless kill(pid, 0) reports ESRCH (the
// process is dead and reaped) within 3 s.
func waitPidGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for {
		err := syscall.Kill(pid, 0)
		if err == syscall.ESRCH {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("process %d outlived Run: kill(pid, 0) = %v, state %q", pid, err, procState(pid))
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// lineOf is the 200-byte line i of the "lines" fake tool.
func lineOf(i int) string {
	l := fmt.Sprintf("line %d ", i)
	return l + strings.Repeat("x", 200-len(l))
}
