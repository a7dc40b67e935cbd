package httpserver_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/face/httpserver"
	"github.com/toolhost/toolhost/resolver"
	"github.com/toolhost/toolhost/tool"
)

// TestCallDisconnectCancels: a client of POST /tools/{name}/call that
// drops its connection mid-call cancels the call (its context, which ends
// the tool's process group in Catalog.Call): nobody can read the result.
func TestCallDisconnectCancels(t *testing.T) {
	cat, err := resolver.New(t.Context(), nil, &resolver.Options{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	started, cancelled := make(chan struct{}), make(chan struct{})
	err = cat.Register(catalog.Definition{Name: "hang", Summary: "Waits until cancelled."}, func(ctx context.Context, _ map[string]any) (tool.Outcome, error) {
		close(started)
		select {
		case <-ctx.Done():
			close(cancelled)
			return tool.Outcome{}, ctx.Err()
		case <-time.After(time.Minute):
			return tool.Success("not cancelled"), nil
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	srv := newServer(t, httpserver.FromCatalog(cat), &httpserver.Options{AllowExecute: true})
	ctx, drop := context.WithCancel(t.Context())
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+"/tools/hang/call", strings.NewReader(`{}`))
	req.Header.Set("Content-Type", "application/json")
	go func() {
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	select {
	case <-started:
	case <-time.After(10 * time.Second):
		t.Fatal("the call never started")
	}
	drop()
	select {
	case <-cancelled:
	case <-time.After(10 * time.Second): // a bound for a hang, not a timing assertion
		t.Fatal("the call was not cancelled when its client dropped the connection")
	}
}
