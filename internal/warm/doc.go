// Package warm runs functions on goroutines kept from one function to the
// next, so that a call whose stack runs deep (an MCP call: the go-sdk's
// layers, argument validation, JSON) does not grow a fresh goroutine's
// stack, doubling and copying it frame by frame, every time.
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
// A Pool keeps as many workers as ran at once, each ending after
// [Pool.Idle] without work. A busy pool starts one per function as the
// go statement does. The garbage collector still halves the stack of a
// worker left idle (it uses little of it then). So a worker regrows it at
// most once per collection, not on every call. A panic in f ends the
// process as it would on a goroutine of its own: Do does not recover it.
package warm
