package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The end-to-end tests run real third-party servers, pinned by
// testdata/npm/package-lock.json.
const npmDir = "testdata/npm"

// npmServer returns the path of an installed server's executable. Without
// node_modules the test skips, saying how to install them, unless CI is
// set: CI installs them (.ci/run) and never skips. Under -short (make
// check) they skip: each starts node.
func npmServer(t *testing.T, bin string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("starts a third-party MCP server under node; skipped with -short")
	}
	path, err := filepath.Abs(filepath.Join(npmDir, "node_modules", ".bin", bin))
	if err != nil {
		t.Fatal(err)
	}
	_, err = os.Stat(path)
	if _, nodeErr := exec.LookPath("node"); err == nil && nodeErr != nil {
		err = nodeErr
	}
	if err != nil {
		const how = "install the pinned MCP servers: (cd internal/source/mcp/testdata/npm && npm ci)"
		if os.Getenv("CI") != "" {
			t.Fatalf("%s: %v; %s", bin, err, how)
		}
		t.Skip(how)
	}
	return path
}

// everythingTests are the calls to server-everything both transports make.
func everythingTests(t *testing.T, s *Source) {
	l, err := s.Tools(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"echo", "get-sum", "get-structured-content", "trigger-long-running-operation"} {
		if !l.has(name) {
			t.Errorf("listing %v lacks %s", l.names(), name)
		}
	}
	if len(l.Skipped) > 0 {
		t.Errorf("skipped tools: %v", l.Skipped)
	}
	tests := []struct {
		name, tool, args string
		hooks            *Hooks
		wantText         string
		wantStruct       any
	}{
		{name: "content", tool: "echo", args: `{"message":"hi"}`, wantText: "Echo: hi"},
		{name: "numbers keep their digits", tool: "get-sum", args: `{"a":2,"b":3.5}`, wantText: "The sum of 2 and 3.5 is 5.5."},
		{name: "structured output", tool: "get-structured-content", args: `{"location":"Chicago"}`,
			wantStruct: map[string]any{"temperature": 36.0, "conditions": "Light rain / drizzle", "humidity": 82.0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := s.Call(t.Context(), tt.tool, json.RawMessage(tt.args), tt.hooks)
			if err != nil {
				t.Fatal(err)
			}
			if res.IsError {
				t.Fatalf("isError: %s", textOf(res))
			}
			if tt.wantText != "" && textOf(res) != tt.wantText {
				t.Errorf("text %q, want %q", textOf(res), tt.wantText)
			}
			if tt.wantStruct != nil && !reflect.DeepEqual(res.StructuredContent, tt.wantStruct) {
				t.Errorf("structuredContent %#v, want %#v", res.StructuredContent, tt.wantStruct)
			}
		})
	}
	t.Run("progress", func(t *testing.T) {
		var got []float64
		res, err := s.Call(t.Context(), "trigger-long-running-operation", json.RawMessage(`{"duration":0.3,"steps":3}`),
			&Hooks{Progress: func(p *Progress) { got = append(got, p.Progress) }})
		if err != nil || res.IsError {
			t.Fatalf("Call = %v, %v", res, err)
		}
		if !reflect.DeepEqual(got, []float64{1, 2, 3}) {
			t.Errorf("progress %v, want [1 2 3], all before the result", got)
		}
	})
	t.Run("cancel", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
		defer cancel()
		start := time.Now()
		_, err := s.Call(ctx, "trigger-long-running-operation", json.RawMessage(`{"duration":30,"steps":3}`), nil)
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("Call = %v, want the caller's deadline", err)
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("the cancelled call took %v", d)
		}
		if res, err := s.Call(t.Context(), "echo", json.RawMessage(`{"message":"after"}`), nil); err != nil || textOf(res) != "Echo: after" {
			t.Errorf("after the cancel: %v, %v", res, err)
		}
	})
	t.Run("elicitation", func(t *testing.T) {
		var asked string
		res, err := s.Call(t.Context(), "trigger-elicitation-request", nil, &Hooks{Elicit: func(_ context.Context, p *mcp.ElicitParams) (*mcp.ElicitResult, error) {
			asked = p.Message
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Ada"}}, nil
		}})
		if err != nil || res.IsError {
			t.Fatalf("Call = %v, %v", res, err)
		}
		if asked != "Please provide inputs for the following fields:" || !strings.Contains(textOf(res), "- Name: Ada") {
			t.Errorf("asked %q, result %q", asked, textOf(res))
		}
	})
}

// TestEverythingStdio: server-everything over stdio.
func TestEverythingStdio(t *testing.T) {
	bin := npmServer(t, "mcp-server-everything")
	s := newSource(t, Spec{Name: "everything", Command: bin, Args: []string{"stdio"}, StartTimeout: 30 * time.Second}, nil)
	everythingTests(t, s)
}

// TestEverythingHTTP: server-everything over streamable HTTP.
func TestEverythingHTTP(t *testing.T) {
	bin := npmServer(t, "mcp-server-everything")
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	cmd := exec.Command(bin, "streamableHttp")
	cmd.Env = append(os.Environ(), fmt.Sprintf("PORT=%d", port))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
	})
	deadline := time.Now().Add(30 * time.Second)
	for {
		c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port))
		if err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("server-everything did not listen on %d: %s", port, stderr.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	s := newSource(t, Spec{Name: "everything-http", URL: fmt.Sprintf("http://127.0.0.1:%d/mcp", port)}, nil)
	everythingTests(t, s)
}

// TestFilesystemStdio: server-filesystem reads a file in its allowed
// directory; a path outside it is the tool's error (data), not an Error.
func TestFilesystemStdio(t *testing.T) {
	bin := npmServer(t, "mcp-server-filesystem")
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "hello.txt")
	if err := os.WriteFile(file, []byte("hello, world\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := newSource(t, Spec{Name: "fs", Command: bin, Args: []string{dir}, StartTimeout: 30 * time.Second}, &Options{CacheDir: t.TempDir()})
	args, _ := json.Marshal(map[string]string{"path": file})
	res, err := s.Call(t.Context(), "read_text_file", args, nil)
	if err != nil || res.IsError || textOf(res) != "hello, world\n" {
		t.Fatalf("read_text_file = %q (isError %v), %v", textOf(res), res != nil && res.IsError, err)
	}
	args, _ = json.Marshal(map[string]string{"path": "/etc/passwd"})
	res, err = s.Call(t.Context(), "read_text_file", args, nil)
	if err != nil || !res.IsError || !strings.Contains(textOf(res), "Access denied") {
		t.Errorf("read outside the allowed directory = %q (isError %v), %v; want the tool's error", textOf(res), res != nil && res.IsError, err)
	}
}

// lockedBuffer is a bytes.Buffer safe for a writing process and a
// reading test.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
