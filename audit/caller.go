package audit

import "context"

// Caller is who made a call, as the face that took it knows it. It holds
// the face's name and the client. A face puts it in the call's context
// with [WithCaller]. The catalog never knows which face called it. It
// reads the Caller back with [CallerFrom] for the call's [Record].
type Caller struct {
	Face   string // "mcp", "http", "cli", "go"
	Client Client
}

type callerKey struct{}

// WithCaller returns ctx carrying c.
func WithCaller(ctx context.Context, c Caller) context.Context {
	return context.WithValue(ctx, callerKey{}, c)
}

// CallerFrom returns the Caller ctx carries. The zero Caller (an embedding
// program's own call) when none.
func CallerFrom(ctx context.Context) Caller {
	c, _ := ctx.Value(callerKey{}).(Caller)
	return c
}
