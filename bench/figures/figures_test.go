package figures

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/config/trust"
)

// A variant is one toolhost binary under test, with its own cache.
type variant struct {
	name string // "after", "before"
	bin  string
	env  []string // XDG_CACHE_HOME of its own, and the shared isolation
}

// fixture is what every figure uses, built once per test binary run.
type fixture struct {
	dir      string
	variants []*variant
	ws200    string // 200 entries over 40 copies of five
	ws20     string // 20 entries over 4 copies of five
	ws1000   string // one toolset over many (1000 tools)
	five     string // bin/five07 in ws200, for bare execs
	many     string
	gosdk    string // five's tool served by the official MCP Go SDK, in-process
	gateway  string // the go-sdk's smallest gateway (testdata/gateway), for two hops without toolhost
	bareProc string // baseline.BareParallel in a process of its own (testdata/bareparallel)
}

var (
	fixOnce sync.Once
	fix     *fixture
	fixErr  error
)

const runRequest = `{"protocol":"1","context":{"action":"run","root":"%s","workspace_id":"w","conversation_id":"c"},"tool":{"name":"alpha","arguments":{"path":"a.txt","offset":0,"limit":2000,"mode":"text"}}}`

func setup(b *testing.B) *fixture {
	b.Helper()
	fixOnce.Do(func() { fix, fixErr = build() })
	if fixErr != nil {
		b.Fatal(fixErr)
	}
	return fix
}

func goBuild(out, pkg string) error {
	cmd := exec.Command("go", "build", "-o", out, pkg)
	if msg, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build %s: %v\n%s", pkg, err, msg)
	}
	return nil
}

func build() (*fixture, error) {
	dir, err := os.MkdirTemp("", "toolhost-figures-")
	if err != nil {
		return nil, err
	}
	f := &fixture{dir: dir}
	bins := filepath.Join(dir, "bins")
	for _, p := range []string{"github.com/toolhost/toolhost/cmd/toolhost", "./testdata/five", "./testdata/many", "./testdata/gosdk", "./testdata/gateway", "./testdata/bareparallel"} {
		if err := goBuild(filepath.Join(bins, filepath.Base(p)), p); err != nil {
			return nil, err
		}
	}
	home := filepath.Join(dir, "home")
	for _, d := range []string{home, filepath.Join(dir, "xdg-config")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	shared := []string{"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(dir, "xdg-config"), "XDG_DATA_HOME=" + filepath.Join(dir, "data"),
		"PATH=" + os.Getenv("PATH"), "NO_COLOR=1"}
	add := func(name, bin string) {
		env := append(slices.Clone(shared), "XDG_CACHE_HOME="+filepath.Join(dir, "cache-"+name))
		f.variants = append(f.variants, &variant{name: name, bin: bin, env: env})
	}
	// Each variant runs from a copy written here. The kernel maps the
	// cached pages of an executable in folios whose size depends on how
	// they came into the page cache: the same binary fresh from the linker
	// had up to 3.5 MB more of itself resident than a copy of it. Copies
	// made the same way compare the binaries, not their histories.
	if before := os.Getenv("TOOLHOST_BEFORE"); before != "" {
		if err := copyFile(before, filepath.Join(bins, "toolhost-before")); err != nil {
			return nil, err
		}
		add("before", filepath.Join(bins, "toolhost-before"))
	}
	if err := copyFile(filepath.Join(bins, "toolhost"), filepath.Join(bins, "toolhost-after")); err != nil {
		return nil, err
	}
	add("after", filepath.Join(bins, "toolhost-after"))

	// 200 entries over 40 copies of five, and 20 over 4.
	f.ws200, f.ws20 = filepath.Join(dir, "ws200"), filepath.Join(dir, "ws20")
	for ws, n := range map[string]int{f.ws200: 40, f.ws20: 4} {
		var cfg strings.Builder
		for i := range n {
			bin := fmt.Sprintf("bin/five%02d", i)
			if err := copyFile(filepath.Join(bins, "five"), filepath.Join(ws, bin)); err != nil {
				return nil, err
			}
			for _, t := range []string{"alpha", "bravo", "charlie", "delta", "echo"} {
				fmt.Fprintf(&cfg, "[tools.b%02d_%s]\ncommand = %q\ntool = %q\n\n", i, t, bin, t)
			}
		}
		if err := writeFile(filepath.Join(ws, ".config/toolhost/tools.toml"), cfg.String()); err != nil {
			return nil, err
		}
	}
	f.five = filepath.Join(f.ws200, "bin/five07")
	f.gosdk = filepath.Join(bins, "gosdk")
	f.gateway = filepath.Join(bins, "gateway")
	f.bareProc = filepath.Join(bins, "bareparallel")

	f.ws1000 = filepath.Join(dir, "ws1000")
	f.many = filepath.Join(f.ws1000, "bin/many")
	if err := copyFile(filepath.Join(bins, "many"), f.many); err != nil {
		return nil, err
	}
	if err := writeFile(filepath.Join(f.ws1000, ".config/toolhost/tools.toml"), "[toolsets.many]\ncommand = \"bin/many\"\n"); err != nil {
		return nil, err
	}
	// Trusted, as `toolhost trust` does, in the store of XDG_DATA_HOME.
	store := &trust.Store{Dir: filepath.Join(dir, "data", "toolhost", "trust")}
	for _, root := range []string{f.ws200, f.ws20, f.ws1000} {
		ws, err := config.FindWorkspace(root)
		if err != nil {
			return nil, err
		}
		if _, err := store.Trust(ws.Root, ws.Sums()); err != nil {
			return nil, err
		}
	}
	return f, nil
}

func writeFile(path, text string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(text), 0o644)
}

func copyFile(from, to string) error {
	data, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return err
	}
	return os.WriteFile(to, data, 0o755)
}

// run runs a command to completion and returns its wall time.
func run(b *testing.B, dir string, env []string, stdin string, argv ...string) time.Duration {
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir, cmd.Env = dir, env
	cmd.Stdin = strings.NewReader(stdin)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	d := time.Since(start)
	if err != nil {
		b.Fatalf("%s: %v\n%s", strings.Join(argv, " "), err, stderr.Bytes())
	}
	return d
}

// toolhost runs v's toolhost with args in dir.
func (v *variant) run(b *testing.B, dir string, args ...string) time.Duration {
	return run(b, dir, v.env, "", append([]string{v.bin}, args...)...)
}

// clearCache empties v's persistent cache.
func (v *variant) clearCache(b *testing.B, dir string) {
	v.run(b, dir, "cache", "clear")
}

// measure runs every function once per iteration, in an order rotating from
// one iteration to the next, and returns each one's median.
func measure(b *testing.B, names []string, fns []func() time.Duration) map[string]time.Duration {
	times := make([][]time.Duration, len(fns))
	for _, fn := range fns { // warm-up: page cache, persistent caches
		fn()
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		for k := range fns {
			j := (i + k) % len(fns)
			times[j] = append(times[j], fns[j]())
		}
	}
	b.StopTimer()
	out := map[string]time.Duration{}
	for i, name := range names {
		out[name] = median(times[i])
		b.ReportMetric(ms(out[name]), name+"-ms")
	}
	return out
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }

// BenchmarkWarmList is P2: `toolhost list` with a warm persistent cache over
// 200 entries / 40 binaries against `toolhost --version` of the same binary
// and against `toolhost --help`, the baseline of the table in
// docs/performance.md, which renders the help text. Goal ≤ 1.5×.
func BenchmarkWarmList(b *testing.B) {
	f := setup(b)
	warm(b, f, f.ws200)
	var names []string
	var fns []func() time.Duration
	for _, v := range f.variants {
		names = append(names, v.name+"-version", v.name+"-help", v.name)
		fns = append(fns,
			func() time.Duration { return v.run(b, f.ws200, "--version") },
			func() time.Duration { return v.run(b, f.ws200, "--help") },
			func() time.Duration { return v.run(b, f.ws200, "list") })
	}
	m := measure(b, names, fns)
	for _, v := range f.variants {
		b.ReportMetric(float64(m[v.name])/float64(m[v.name+"-version"]), v.name+"/version")
		b.ReportMetric(float64(m[v.name])/float64(m[v.name+"-help"]), v.name+"/help")
	}
}

// BenchmarkWarmCall is P3: `toolhost call b07_alpha path=a.txt`, warm,
// against `toolhost --version` plus a bare exec of the binary answering
// the same run request, and against `toolhost --help` plus the bare exec
// (see BenchmarkWarmList). Goal ≤ 1.25×.
func BenchmarkWarmCall(b *testing.B) {
	f := setup(b)
	warm(b, f, f.ws200)
	req := fmt.Sprintf(runRequest, f.ws200)
	names := []string{"bare-exec"}
	fns := []func() time.Duration{func() time.Duration { return run(b, f.ws200, nil, req, f.five) }}
	for _, v := range f.variants {
		names = append(names, v.name+"-version", v.name+"-help", v.name)
		fns = append(fns,
			func() time.Duration { return v.run(b, f.ws200, "--version") },
			func() time.Duration { return v.run(b, f.ws200, "--help") },
			func() time.Duration { return v.run(b, f.ws200, "call", "b07_alpha", "path=a.txt") })
	}
	m := measure(b, names, fns)
	for _, v := range f.variants {
		b.ReportMetric(float64(m[v.name])/float64(m[v.name+"-version"]+m["bare-exec"]), v.name+"/(version+exec)")
		b.ReportMetric(float64(m[v.name])/float64(m[v.name+"-help"]+m["bare-exec"]), v.name+"/(help+exec)")
	}
}

// BenchmarkWarmList1000 is `toolhost list` of the 1000-tool binary, warm,
// against `toolhost --version`: the difference in ms. Goal ≤ +10 ms.
func BenchmarkWarmList1000(b *testing.B) {
	f := setup(b)
	warm(b, f, f.ws1000)
	var names []string
	var fns []func() time.Duration
	for _, v := range f.variants {
		names = append(names, v.name+"-version", v.name, v.name+"-json")
		fns = append(fns,
			func() time.Duration { return v.run(b, f.ws1000, "--version") },
			func() time.Duration { return v.run(b, f.ws1000, "list") },
			func() time.Duration { return v.run(b, f.ws1000, "list", "--json") })
	}
	m := measure(b, names, fns)
	for _, v := range f.variants {
		b.ReportMetric(ms(m[v.name]-m[v.name+"-version"]), v.name+"-over-version-ms")
		b.ReportMetric(ms(m[v.name+"-json"]-m[v.name+"-version"]), v.name+"-json-over-version-ms")
	}
}

// warm fills every variant's persistent cache for ws.
func warm(b *testing.B, f *fixture, ws string) {
	for _, v := range f.variants {
		v.run(b, ws, "list")
	}
}

// session is a raw MCP client over a `toolhost serve` process's stdio.
type session struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
	id  int
}

func (v *variant) serve(b *testing.B, dir string, args ...string) *session {
	return startSession(b, dir, v.env, append([]string{v.bin, "serve"}, args...)...)
}

// startSession starts an MCP server (argv) and, unless it serves HTTP,
// initializes a session on its stdio.
func startSession(b *testing.B, dir string, env []string, argv ...string) *session {
	args := argv[2:]
	cmd := exec.Command(argv[0], argv[1:]...)
	var stderr syncBuffer // shown if the benchmark fails, not mixed into its result lines
	cmd.Dir, cmd.Env, cmd.Stderr = dir, env, &stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	s := &session{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<20)}
	b.Cleanup(func() {
		in.Close()
		cmd.Process.Signal(syscall.SIGTERM) // serve --http does not read stdin
		cmd.Wait()
		if b.Failed() && stderr.Len() > 0 {
			b.Logf("%s stderr:\n%s", strings.Join(argv, " "), stderr.String())
		}
	})
	if !slices.Contains(args, "--http") {
		s.call(b, "initialize", initializeParams)
		fmt.Fprintln(in, initialized)
	}
	return s
}

// The client's half of the MCP handshake.
const (
	initializeParams = `{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"figures","version":"1"}}`
	initialized      = `{"jsonrpc":"2.0","method":"notifications/initialized","params":{}}`
)

// BenchmarkServeStart is the start of `toolhost serve` (MCP over stdio)
// with 20, 200 and 1000 tools, warm: the time from starting the process
// to its answer to initialize ("init"), and to its answer to the first
// tools/list ("list"). Each is a ratio against `toolhost --version` of
// the same binary, run to its end.
func BenchmarkServeStart(b *testing.B) {
	f := setup(b)
	sizes := []struct {
		n  int
		ws string
	}{{20, f.ws20}, {200, f.ws200}, {1000, f.ws1000}}
	for _, sz := range sizes {
		warm(b, f, sz.ws)
	}
	var names []string
	var fns []func() time.Duration
	for _, v := range f.variants {
		names = append(names, v.name+"-version")
		fns = append(fns, func() time.Duration { return v.run(b, f.ws20, "--version") })
		for _, sz := range sizes {
			for _, list := range []bool{false, true} {
				names = append(names, startName(v.name, sz.n, list))
				fns = append(fns, func() time.Duration { return v.start(b, sz.ws, list) })
			}
		}
	}
	m := measure(b, names, fns)
	for _, v := range f.variants {
		for _, sz := range sizes {
			for _, list := range []bool{false, true} {
				name := startName(v.name, sz.n, list)
				b.ReportMetric(float64(m[name])/float64(m[v.name+"-version"]), name+"/version")
			}
		}
	}
}

// startName names a measure of BenchmarkServeStart.
func startName(variant string, n int, list bool) string {
	if list {
		return fmt.Sprintf("%s-%d-list", variant, n)
	}
	return fmt.Sprintf("%s-%d-init", variant, n)
}

// start starts `toolhost serve` in dir and returns the time to its answer
// to initialize, or with list to its answer to the first tools/list. It
// then closes the server's stdin and waits for it to end.
func (v *variant) start(b *testing.B, dir string, list bool) time.Duration {
	cmd := exec.Command(v.bin, "serve")
	var stderr syncBuffer
	cmd.Dir, cmd.Env, cmd.Stderr = dir, v.env, &stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	begin := time.Now()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	s := &session{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<20)}
	s.call(b, "initialize", initializeParams)
	if list {
		fmt.Fprintln(in, initialized)
		s.call(b, "tools/list", `{}`)
	}
	d := time.Since(begin)
	in.Close()
	if err := cmd.Wait(); err != nil {
		b.Fatalf("toolhost serve: %v\n%s", err, stderr.String())
	}
	return d
}

// syncBuffer is a bytes.Buffer safe for a process's writer goroutine and
// the benchmark's reader.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Write(p)
}

func (s *syncBuffer) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Len()
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String()
}

// call sends one request and reads until its answer; it returns the round
// trip and the answer's size.
func (s *session) call(b *testing.B, method, params string) (time.Duration, int) {
	s.id++
	msg := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`+"\n", s.id, method, params)
	start := time.Now()
	if _, err := io.WriteString(s.in, msg); err != nil {
		b.Fatal(err)
	}
	want := []byte(`"id":` + strconv.Itoa(s.id) + `,`)
	for {
		line, err := s.out.ReadBytes('\n')
		if err != nil {
			b.Fatalf("%s: %v", method, err)
		}
		if !bytes.Contains(line, want) && !bytes.HasSuffix(bytes.TrimSpace(line), []byte(`"id":`+strconv.Itoa(s.id)+`}`)) {
			continue // a notification
		}
		d := time.Since(start)
		var resp struct {
			Error json.RawMessage `json:"error"`
		}
		if err := json.Unmarshal(line, &resp); err != nil || resp.Error != nil {
			b.Fatalf("%s: %v %s", method, err, line)
		}
		return d, len(line)
	}
}

// BenchmarkMCPCall is the MCP stdio tools/call of one tool (one-shot: a
// process per call) against a bare exec of the binary answering the same
// run request. Goal ≤ 1.2×.
func BenchmarkMCPCall(b *testing.B) {
	f := setup(b)
	warm(b, f, f.ws200)
	req := fmt.Sprintf(runRequest, f.ws200)
	names := []string{"bare-exec"}
	fns := []func() time.Duration{func() time.Duration { return run(b, f.ws200, nil, req, f.five) }}
	for _, v := range f.variants {
		// One-shot: without pools (the sdk binaries declare long_lived).
		s := startSession(b, f.ws200, append(slices.Clone(v.env), "TOOLHOST_POOL_SIZE=0"), v.bin, "serve")
		names = append(names, v.name)
		fns = append(fns, func() time.Duration {
			d, _ := s.call(b, "tools/call", `{"name":"b07_alpha","arguments":{"path":"a.txt"}}`)
			return d
		})
	}
	m := measure(b, names, fns)
	for _, v := range f.variants {
		b.ReportMetric(float64(m[v.name])/float64(m["bare-exec"]), v.name+"/exec")
	}
}

// BenchmarkMCPCallLongLived is the MCP stdio tools/call of one tool of a
// long-lived sdk binary (served from `toolhost serve`'s pool of long-lived
// processes) against a bare exec of the binary answering the same run
// request (goal ≤ 0.2×) and against the same tool in-process in a go-sdk
// server on stdio, called over the same raw session (goal ≤ 3×).
func BenchmarkMCPCallLongLived(b *testing.B) {
	f := setup(b)
	warm(b, f, f.ws200)
	req := fmt.Sprintf(runRequest, f.ws200)
	const params = `{"name":"b07_alpha","arguments":{"path":"a.txt"}}`
	gosdk := startSession(b, f.ws200, f.variants[0].env, f.gosdk, "serve")
	names := []string{"bare-exec", "go-sdk"}
	fns := []func() time.Duration{
		func() time.Duration { return run(b, f.ws200, nil, req, f.five) },
		func() time.Duration { d, _ := gosdk.call(b, "tools/call", params); return d },
	}
	for _, v := range f.variants {
		s := v.serve(b, f.ws200)
		s.call(b, "tools/call", params) // starts the process
		names = append(names, v.name)
		fns = append(fns, func() time.Duration {
			d, _ := s.call(b, "tools/call", params)
			return d
		})
	}
	m := measure(b, names, fns)
	for _, v := range f.variants {
		b.ReportMetric(float64(m[v.name])/float64(m["bare-exec"]), v.name+"/exec")
		b.ReportMetric(float64(m[v.name])/float64(m["go-sdk"]), v.name+"/go-sdk")
	}
}

// BenchmarkMCPList1000 is a raw MCP tools/list of 1000 tools over stdio,
// against a ping on the same session (the transport's floor). Goal ≤ 3 ms.
func BenchmarkMCPList1000(b *testing.B) {
	f := setup(b)
	warm(b, f, f.ws1000)
	var names []string
	var fns []func() time.Duration
	size := 0
	for _, v := range f.variants {
		s := v.serve(b, f.ws1000)
		names = append(names, v.name+"-ping", v.name)
		fns = append(fns,
			func() time.Duration { d, _ := s.call(b, "ping", `{}`); return d },
			func() time.Duration { d, n := s.call(b, "tools/list", `{}`); size = n; return d })
	}
	m := measure(b, names, fns)
	b.ReportMetric(float64(size)/1024, "KiB")
	for _, v := range f.variants {
		b.ReportMetric(float64(m[v.name])/float64(m[v.name+"-ping"]), v.name+"/ping")
	}
}

// BenchmarkHTTP1000 is GET /tools, GET /api/v1/tools and GET /identity of
// 1000 tools over loopback HTTP (keep-alive), against a GET of an unknown
// path (a 404: the HTTP floor). Goals ≤ 1 ms, identity ≤ 0.2 ms.
func BenchmarkHTTP1000(b *testing.B) {
	f := setup(b)
	warm(b, f, f.ws1000)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	var names []string
	var fns []func() time.Duration
	for _, v := range f.variants {
		addr := freeAddr(b)
		v.serve(b, f.ws1000, "--http", addr)
		waitHTTP(b, client, "http://"+addr+"/identity")
		get := func(path string, code int) func() time.Duration {
			return func() time.Duration {
				start := time.Now()
				resp, err := client.Get("http://" + addr + path)
				if err != nil {
					b.Fatal(err)
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				d := time.Since(start)
				if resp.StatusCode != code {
					b.Fatalf("GET %s: %d", path, resp.StatusCode)
				}
				return d
			}
		}
		names = append(names, v.name+"-404", v.name+"-tools", v.name+"-manifest", v.name+"-identity")
		fns = append(fns, get("/nope", 404), get("/tools", 200), get("/api/v1/tools", 200), get("/identity", 200))
	}
	m := measure(b, names, fns)
	for _, v := range f.variants {
		for _, p := range []string{"tools", "manifest", "identity"} {
			b.ReportMetric(float64(m[v.name+"-"+p])/float64(m[v.name+"-404"]), v.name+"-"+p+"/404")
		}
	}
}

func freeAddr(b *testing.B) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

func waitHTTP(b *testing.B, client *http.Client, url string) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for ctx.Err() == nil {
		if resp, err := client.Get(url); err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	b.Fatalf("%s never answered", url)
}

// BenchmarkServeRSS reports the resident memory of `toolhost serve` (MCP
// over stdio) serving 1000 tools after two tools/list, warm: the median and
// the largest over the iterations of VmRSS and of its peak VmHWM, in MB
// (10^6 bytes, the stricter reading of the goal). Goal ≤ 30 MB.
func BenchmarkServeRSS(b *testing.B) {
	f := setup(b)
	warm(b, f, f.ws1000)
	samples := map[string][]float64{}
	for b.Loop() {
		for _, v := range f.variants {
			s := v.serve(b, f.ws1000)
			s.call(b, "tools/list", `{}`)
			s.call(b, "tools/list", `{}`)
			status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
			if err != nil {
				b.Skip("no /proc")
			}
			for _, field := range []string{"VmRSS", "VmHWM"} {
				name := v.name + "-" + field
				samples[name] = append(samples[name], statusMB(status, field))
			}
			s.in.Close()
			s.cmd.Wait()
		}
	}
	for name, mb := range samples {
		slices.Sort(mb)
		b.ReportMetric(mb[len(mb)/2], name+"-MB")
		b.ReportMetric(mb[len(mb)-1], name+"-max-MB")
	}
}

func statusMB(status []byte, field string) float64 {
	for line := range strings.SplitSeq(string(status), "\n") {
		if rest, ok := strings.CutPrefix(line, field+":"); ok {
			kb, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")))
			return float64(kb) * 1024 / 1e6 // /proc's kB are KiB
		}
	}
	return 0
}
