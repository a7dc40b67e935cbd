package schemacache

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/toolhost/toolhost/tool"
)

func TestSessionCacheSharesOneRequest(t *testing.T) {
	var s Session
	var calls int
	var mu sync.Mutex
	release := make(chan struct{})
	fetch := func() (*tool.SchemaResponse, error) {
		mu.Lock()
		calls++
		mu.Unlock()
		<-release
		return &tool.SchemaResponse{Tools: []tool.Definition{{Name: "x"}}}, nil
	}
	var wg sync.WaitGroup
	results := make([]*tool.SchemaResponse, 10)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], _ = s.Get(context.Background(), "k", fetch)
		}()
	}
	time.Sleep(20 * time.Millisecond)
	close(release)
	wg.Wait()
	if calls != 1 {
		t.Errorf("fetch ran %d times, want 1", calls)
	}
	for i, r := range results {
		if r == nil || r.Tools[0].Name != "x" {
			t.Errorf("asker %d got %v", i, r)
		}
	}
	// A waiter whose asker gives up asks again itself.
	started, giveUp := make(chan struct{}), make(chan struct{})
	askerCtx, cancelAsker := context.WithCancel(t.Context())
	go func() {
		s.Get(askerCtx, "w", func() (*tool.SchemaResponse, error) {
			close(started)
			<-giveUp
			return nil, askerCtx.Err()
		})
	}()
	<-started
	var waiterGot *tool.SchemaResponse
	waited := make(chan error)
	go func() {
		var err error
		waiterGot, err = s.Get(t.Context(), "w", func() (*tool.SchemaResponse, error) {
			return &tool.SchemaResponse{Tools: []tool.Definition{{Name: "again"}}}, nil
		})
		waited <- err
	}()
	time.Sleep(20 * time.Millisecond)
	cancelAsker()
	close(giveUp)
	if err := <-waited; err != nil || waiterGot.Tools[0].Name != "again" {
		t.Errorf("waiter after a cancelled asker: %v, %v", waiterGot, err)
	}

	// A cancelled request is not kept: the next asker asks again.
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err := s.Get(ctx, "c", func() (*tool.SchemaResponse, error) { return nil, ctx.Err() })
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	got, err := s.Get(t.Context(), "c", func() (*tool.SchemaResponse, error) { return &tool.SchemaResponse{}, nil })
	if err != nil || got == nil {
		t.Errorf("after a cancelled request: %v, %v", got, err)
	}
}
