package httpserver_test

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestBrowserServeOverwrite: through `toolhost serve --http
// --allow-execute` (the binary, as a user starts it, with fs registered as
// a toolset), write_file over an existing file asks whether to overwrite;
// "No" leaves the file as it was, "Yes" answered in the page reaches the
// tool and the file holds the new text. The question and answer travel
// in both of the API's body forms the page and other clients send.
func TestBrowserServeOverwrite(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Chromium and builds toolhost and the examples; skipped with -short")
	}
	bctx := browser(t)
	bin := binaries(t)
	root := t.TempDir()
	notes := filepath.Join(root, "notes.txt")
	if err := os.WriteFile(notes, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	conf := filepath.Join(t.TempDir(), "fs.toml")
	if err := os.WriteFile(conf, []byte("[toolsets.fs]\ncommand = "+`"`+filepath.Join(bin, "fs")+`"`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	serve := exec.CommandContext(t.Context(), filepath.Join(bin, "toolhost"), "--no-cache", "--root", root, "--config", conf,
		"serve", "--http", "127.0.0.1:0", "--allow-execute")
	serve.Env = append(append(os.Environ(), tempHome(t)...), "TOOLHOST_TOKEN=") // its audit log too
	stderr, err := serve.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { serve.Process.Signal(os.Interrupt); serve.Wait() })
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		re := regexp.MustCompile(`serving \d+ tools? on (http://\S+)`)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
			}
		}
	}()
	var url string
	select {
	case url = <-addr:
	case <-time.After(30 * time.Second):
		t.Fatal("toolhost serve --http did not say where it serves within 30s")
	}

	ask := func(answer string) {
		t.Helper()
		ctx := page(t, bctx, url, url+"/#tool=write_file")
		wait(t, ctx, `!!document.querySelector('input[name="/content"]')`)
		set(t, ctx, `input[name="/path"]`, "notes.txt")
		set(t, ctx, `input[name="/content"]`, "new")
		click(t, ctx, "Run")
		wait(t, ctx, resultText+`.includes('asks a question')`)
		mustNamed(t, ctx, "combobox", "Overwrite notes.txt (3 bytes)?")
		set(t, ctx, "#result select", answer)
		click(t, ctx, "Answer")
		wait(t, ctx, resultText+`.includes('Succeeded') || `+resultText+`.includes('Tool error')`)
		if answer == "true" && !strings.Contains(eval[string](t, ctx, resultText), "wrote 3 bytes to notes.txt") {
			t.Errorf("after answering yes, the result says:\n%s", eval[string](t, ctx, resultText))
		}
	}
	ask("false")
	if data, _ := os.ReadFile(notes); string(data) != "old" {
		t.Fatalf("notes.txt = %q after answering no, want it untouched", data)
	}
	ask("true")
	if data, _ := os.ReadFile(notes); string(data) != "new" {
		t.Errorf("notes.txt = %q after answering yes in the page, want %q", data, "new")
	}

	// The same question, answered through the API's bare form (F3) and
	// its envelope: the bare arguments cannot carry answers, so the tool
	// asks again; the envelope's answer overwrites.
	os.WriteFile(notes, []byte("old"), 0o644)
	resp, body := post(t, url+"/tools/write_file/call", `{"path":"notes.txt","content":"bare"}`, nil)
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"resultType":"input_required"`) {
		t.Errorf("bare call over an existing file: %d %s, want the question", resp.StatusCode, body)
	}
	resp, body = post(t, url+"/tools/write_file/call", `{"arguments":{"path":"notes.txt","content":"enveloped"},"answers":{"overwrite":true}}`, nil)
	if data, _ := os.ReadFile(notes); resp.StatusCode != 200 || string(data) != "enveloped" {
		t.Errorf("answered call: %d %s; notes.txt = %q", resp.StatusCode, body, data)
	}
}
