package audit

import (
	"context"
	"testing"
)

func TestCaller(t *testing.T) {
	if got := CallerFrom(t.Context()); got != (Caller{}) {
		t.Errorf("CallerFrom(no caller) = %+v, want the zero Caller", got)
	}
	want := Caller{Face: "http", Client: Client{Addr: "127.0.0.1:1", TokenID: TokenID("x")}}
	ctx, cancel := context.WithCancel(WithCaller(t.Context(), want))
	defer cancel()
	if got := CallerFrom(ctx); got != want {
		t.Errorf("CallerFrom = %+v, want %+v", got, want)
	}
}
