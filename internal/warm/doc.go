// Package warm runs functions on goroutines kept from one function to the
// next. Some calls run deep stacks, such as an MCP call with the go-sdk's
// layers, argument validation and JSON. On a fresh goroutine such a call
// grows the stack every time, doubling and copying it frame by frame. A
// kept goroutine avoids that.
//
//	var p warm.Pool // the zero Pool is ready; safe for concurrent use
//	p.Go(func() { res, err = forward(ctx, call) })
//	err := p.Do(func() error { return validate(args) }) // and wait for it
//
// Flow: Go(f) → an idle worker takes f, or a new one starts → f runs →
// the worker waits [Pool.Idle] for the next f, then ends.
//
// # Trade-offs
//
// A Pool keeps as many workers as ran at once. Each ends after
// [Pool.Idle] without work. A busy pool starts one per function as the
// go statement does. The garbage collector still halves the stack of a
// worker left idle, as it uses little of it then. So a worker regrows it
// at most once per collection, not on every call. A panic in f ends the
// process as it would on a goroutine of its own. Do does not recover it.
package warm
