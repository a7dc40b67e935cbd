package invoke

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/toolhost/toolhost/internal/invoke/faketool"
	"github.com/toolhost/toolhost/internal/invoke/sandbox"
	"github.com/toolhost/toolhost/tool"
)

// openFile is what "print-fds" reports of one open descriptor.
type openFile struct {
	FD       int
	Dev, Ino uint64
}

// printFDs prints, as one JSON line, the descriptors from 3 up that the
// process holds (found by fstat: a sandboxed tool has no /proc).
func printFDs() int {
	var open []openFile
	for fd := 3; fd < 1024; fd++ {
		var st syscall.Stat_t
		if syscall.Fstat(fd, &st) == nil {
			open = append(open, openFile{fd, st.Dev, st.Ino})
		}
	}
	data, _ := json.Marshal(open)
	fmt.Println(string(data))
	return 0
}

func init() { fakeTools["print-fds"] = printFDs }

// spawners are the three ways the host starts a process, each returning
// what the process printed on stdout.
var spawners = []struct {
	name string
	run  func(t *testing.T, spec *Spec, root string) []byte
}{
	{"one-shot", func(t *testing.T, spec *Spec, root string) []byte {
		res, err := Run(t.Context(), spec, request(tool.ActionRun, root, nil))
		if err != nil {
			t.Fatal(err)
		}
		return res.Stdout
	}},
	{"long-lived", func(t *testing.T, spec *Spec, root string) []byte {
		var out []byte
		p, err := Start(spec, request(tool.ActionRun, root, nil), func(line []byte) { out = append(append(out, line...), '\n') })
		if err != nil {
			t.Fatal(err)
		}
		<-p.Done()
		return out
	}},
	{"pipes (an MCP server)", func(t *testing.T, spec *Spec, root string) []byte {
		p, err := Open(spec, root)
		if err != nil {
			t.Fatal(err)
		}
		defer p.Stop()
		out, err := io.ReadAll(p.Stdout())
		if err != nil {
			t.Fatal(err)
		}
		p.Stdout().Close()
		return out
	}},
}

// fakeEnv is the environment table a fake tool needs when sandboxed,
// which passes only what the entry names.
func fakeEnv() map[string]string {
	return map[string]string{faketool.Env: "1", "GORACE": os.Getenv("GORACE")}
}

// sandboxes are the two ways a process runs: unconfined, and under the
// sandbox (Landlock where the kernel has it).
var sandboxes = []struct {
	name string
	pol  *sandbox.Policy
}{
	{"unsandboxed", nil},
	{"sandboxed", &sandbox.Policy{Mode: sandbox.ModeOn}},
}

// TestInheritedDescriptorsNotPassed: a descriptor toolhost inherited
// without close-on-exec (a secret file, a terminal its parent left open)
// reaches no process it starts, however it starts it; the process gets
// its standard streams and nothing else.
func TestInheritedDescriptorsNotPassed(t *testing.T) {
	secret := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(secret, []byte("hunter2"), 0o600); err != nil {
		t.Fatal(err)
	}
	fd, err := syscall.Open(secret, syscall.O_RDONLY, 0) // no O_CLOEXEC: as a parent leaves one
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Close(fd) })
	_, tty := faketool.OpenPTY(t)
	ttyFD, err := syscall.Dup(int(tty.Fd())) // dup: no close-on-exec
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Close(ttyFD) })
	planted := map[[2]uint64]string{}
	for name, f := range map[string]int{"the secret file": fd, "the terminal": ttyFD} {
		var st syscall.Stat_t
		if err := syscall.Fstat(f, &st); err != nil {
			t.Fatal(err)
		}
		planted[[2]uint64{st.Dev, st.Ino}] = fmt.Sprintf("%s (fd %d)", name, f)
	}
	root := t.TempDir()
	for _, sb := range sandboxes {
		for _, sp := range spawners {
			t.Run(sb.name+", "+sp.name, func(t *testing.T) {
				spec := fake(t, "print-fds")
				spec.Sandbox = sb.pol
				spec.Env = fakeEnv() // a sandboxed tool keeps only what the entry names
				var open []openFile
				if err := json.Unmarshal(sp.run(t, spec, root), &open); err != nil {
					t.Fatal(err)
				}
				for _, o := range open {
					if what, ok := planted[[2]uint64{o.Dev, o.Ino}]; ok {
						t.Errorf("the tool holds %s as its fd %d", what, o.FD)
					}
				}
			})
		}
	}
}

// TestHostVariablesStripped: no TOOLHOST_* variable of the host's
// environment (TOOLHOST_TOKEN above all) reaches a process it starts,
// sandboxed or not, however it starts it; the entry's own env table and
// the variables the host sets for the process do.
func TestHostVariablesStripped(t *testing.T) {
	t.Setenv("TOOLHOST_TOKEN", "the-bearer-token")
	t.Setenv("TOOLHOST_POOL_SIZE", "3")
	root := t.TempDir()
	for _, sb := range sandboxes {
		for _, sp := range spawners {
			t.Run(sb.name+", "+sp.name, func(t *testing.T) {
				spec := fake(t, "print-env")
				spec.Sandbox = sb.pol
				spec.Env = fakeEnv()
				spec.Env["TOOLHOST_ENTRY_SET"] = "kept"
				var env []string
				if err := json.Unmarshal(sp.run(t, spec, root), &env); err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, kv := range env {
					if strings.HasPrefix(kv, "TOOLHOST_") && !strings.HasPrefix(kv, CallEnv+"=") && !strings.HasPrefix(kv, tool.LongLivedEnv+"=") {
						got = append(got, kv)
					}
				}
				if want := []string{"TOOLHOST_ENTRY_SET=kept"}; !slices.Equal(got, want) {
					t.Errorf("TOOLHOST_ variables of the tool = %q, want %q", got, want)
				}
				if !slices.ContainsFunc(env, func(kv string) bool { return strings.HasPrefix(kv, CallEnv+"=") }) {
					t.Errorf("the tool lacks its %s token: %q", CallEnv, env)
				}
			})
		}
	}
}

// BenchmarkCloseInherited is what marking the descriptors close-on-exec
// costs each start (close_range, or each descriptor where it is missing).
func BenchmarkCloseInherited(b *testing.B) {
	b.Run("close_range", func(b *testing.B) {
		for b.Loop() {
			closeInherited()
		}
	})
	b.Run("each", func(b *testing.B) {
		for b.Loop() {
			markEach()
		}
	})
}
