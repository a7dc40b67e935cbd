package httpserver_test

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/face/httpserver"
	"github.com/toolhost/toolhost/resolver"
)

// approvalCatalog serves examples/fs's write_file, built into a temporary
// directory, with run = "ask", in the workspace root: a tool whose side
// effect (a file in root) a test can see.
func approvalCatalog(t *testing.T, root string) *resolver.Catalog {
	t.Helper()
	bin := binaries(t)
	cfg, err := config.Parse("approval.toml", []byte(fmt.Sprintf("[tools.write_file]\ncommand = %q\nrun = \"ask\"\n", filepath.Join(bin, "fs"))))
	if err != nil {
		t.Fatal(err)
	}
	cat, err := resolver.New(t.Context(), cfg, &resolver.Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	if err := cat.Report().Err(); err != nil {
		t.Fatal(err)
	}
	return cat
}

// TestCallApproval: POST /tools/{name}/call of a tool with run = "ask"
// answers the approval request (the call as the tool renders it, and a
// one-time ticket) and runs nothing; only that ticket, sent back with the
// same arguments, runs the call, once. A forged or spent ticket, another
// call's arguments, or answers named like the approval are asked again.
func TestCallApproval(t *testing.T) {
	if testing.Short() {
		t.Skip("builds examples/fs; skipped with -short")
	}
	root := t.TempDir()
	srv := newServer(t, httpserver.FromCatalog(approvalCatalog(t, root)), &httpserver.Options{AllowExecute: true})
	file := filepath.Join(root, "a.txt")
	written := func() string {
		data, err := os.ReadFile(file)
		if os.IsNotExist(err) {
			return "(none)"
		}
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	call := func(body string) map[string]any {
		t.Helper()
		resp, data := post(t, srv.URL+"/tools/write_file/call", body, nil)
		if resp.StatusCode != 200 {
			t.Fatalf("%s: status %d: %s", body, resp.StatusCode, data)
		}
		var m map[string]any
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	args := `"arguments":{"path":"a.txt","content":"x\n"}`
	ticketOf := func(m map[string]any) string {
		t.Helper()
		ticket, _ := m["requestState"].(string)
		if m["resultType"] != "input_required" || m["inputRequests"].(map[string]any)["approval"] == nil || ticket == "" {
			t.Fatalf("want an approval request, got %v", m)
		}
		return ticket
	}

	// The manifest says so: run = "ask" is requires_approval.
	if _, data := get(t, srv.URL+"/api/v1/tools/write_file", nil); !strings.Contains(string(data), `"requires_approval":true`) {
		t.Errorf("manifest entry lacks requires_approval = true: %s", data)
	}
	resp, data := post(t, srv.URL+"/tools/write_file/call", "{"+args+"}", nil)
	golden(t, "call_approval.json", regexp.MustCompile(`"requestState":"[^"]*"`).ReplaceAll(data, []byte(`"requestState":"TICKET"`)))
	if resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	var first map[string]any
	json.Unmarshal(data, &first)
	ticket := ticketOf(first)

	steps := []struct {
		name string
		body string
		want string // "approval" for an approval request, else the result's text
		file string
	}{
		{"a forged ticket", `{` + args + `,"approval":"AAAAAAAAAAAAAAAAAAAAAAAA"}`, "approval", "(none)"},
		{"answers named like the approval", `{` + args + `,"answers":{"approval":true,"approve":true,"write_file":true}}`, "approval", "(none)"},
		{"the ticket with other arguments", `{"arguments":{"path":"b.txt","content":"y"},"approval":"` + ticket + `"}`, "approval", "(none)"},
		{"the spent ticket", `{` + args + `,"approval":"` + ticket + `"}`, "approval", "(none)"},
	}
	for _, st := range steps {
		if got := call(st.body); got["resultType"] == "input_required" {
			ticketOf(got)
		} else {
			t.Errorf("%s: ran: %v", st.name, got)
		}
		if got := written(); got != st.file {
			t.Errorf("%s: a.txt holds %q, want %q", st.name, got, st.file)
		}
	}
	fresh := ticketOf(call("{" + args + "}"))
	got := call(`{` + args + `,"approval":"` + fresh + `"}`)
	if got["isError"] == true || !strings.Contains(fmt.Sprint(got["content"]), "wrote 2 bytes to a.txt") || written() != "x\n" {
		t.Fatalf("approved: %v; a.txt holds %q", got, written())
	}
	// A question after the approval comes with a new ticket: the answer
	// and that ticket run the call without asking for approval again.
	q := call(`{"arguments":{"path":"a.txt","content":"z\n"},"approval":"` + ticketOf(call(`{"arguments":{"path":"a.txt","content":"z\n"}}`)) + `"}`)
	again, _ := q["requestState"].(string)
	if q["inputRequests"].(map[string]any)["approval"] != nil || again == "" || written() != "x\n" {
		t.Fatalf("overwrite: want the question with a new ticket, got %v; a.txt holds %q", q, written())
	}
	var id string
	for k := range q["inputRequests"].(map[string]any) {
		id = k
	}
	got = call(fmt.Sprintf(`{"arguments":{"path":"a.txt","content":"z\n"},"answers":{%q:true},"approval":%q}`, id, again))
	if got["isError"] == true || written() != "z\n" {
		t.Fatalf("answered after approval: %v; a.txt holds %q", got, written())
	}
}

// TestBrowserApproval: on the page, Run of a tool with run = "ask" shows
// the call as the tool renders it, with "Approve and run" and "Cancel";
// Cancel writes nothing, "Approve and run" writes the file once.
func TestBrowserApproval(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Chromium; skipped with -short")
	}
	bctx := browser(t)
	root := t.TempDir()
	srv := httptest.NewServer(httpserver.NewHandler(httpserver.FromCatalog(approvalCatalog(t, root)), &httpserver.Options{AllowExecute: true}))
	defer srv.Close()
	file := filepath.Join(root, "a.txt")
	absent := func(when string) {
		if _, err := os.Stat(file); !os.IsNotExist(err) {
			t.Fatalf("%s: a.txt exists (%v)", when, err)
		}
	}

	ctx := page(t, bctx, srv.URL, srv.URL+"/#tool=write_file")
	wait(t, ctx, `!!document.querySelector('input[name="/path"]')`)
	set(t, ctx, `input[name="/path"]`, "a.txt")
	set(t, ctx, `input[name="/content"]`, "one two")
	click(t, ctx, "Run")
	wait(t, ctx, resultText+`.includes('Approve and run')`)
	mustNamed(t, ctx, "button", "Approve and run")
	mustNamed(t, ctx, "button", "Cancel")
	mustNamed(t, ctx, "group", "Approval")
	shown := eval[string](t, ctx, `document.querySelector('[aria-label="Call to approve"]').textContent`)
	if want := "Run tool \"write_file\"? It runs only once you approve this call:\n\nwrite a.txt (7 bytes, 1 line)\n  │ one two"; shown != want {
		t.Errorf("the call shown:\n%s\nwant:\n%s", shown, want)
	}
	absent("shown for approval")

	click(t, ctx, "Cancel")
	wait(t, ctx, resultText+`.includes('Not run: you did not approve the call.')`)
	absent("cancelled")

	click(t, ctx, "Run")
	wait(t, ctx, resultText+`.includes('Approve and run')`)
	click(t, ctx, "Approve and run")
	wait(t, ctx, resultText+`.includes('Succeeded')`)
	if data, err := os.ReadFile(file); err != nil || string(data) != "one two" {
		t.Fatalf("approved: a.txt holds %q (%v)", data, err)
	}
	if got := eval[string](t, ctx, resultText); !strings.Contains(got, "wrote 7 bytes to a.txt") {
		t.Errorf("result:\n%s", got)
	}
}
