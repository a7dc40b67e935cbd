package warm

import (
	"sync"
	"time"
)

// IdleTimeout is how long a worker waits for the next function before it
// ends, when [Pool.Idle] is zero.
const IdleTimeout = 30 * time.Second

// Pool runs functions on kept goroutines (see the package comment). The
// zero value is ready for use. Safe for concurrent use.
type Pool struct {
	// Idle is how long a worker waits for the next function before it
	// ends. If zero, [IdleTimeout]. Set it before the first use.
	Idle time.Duration

	once sync.Once
	work chan func() // unbuffered: a send succeeds only to an idle worker
}

func (p *Pool) ch() chan func() {
	p.once.Do(func() { p.work = make(chan func()) })
	return p.work
}

// Go runs f on an idle worker. Or it runs f on a new goroutine that then
// stays as one.
func (p *Pool) Go(f func()) {
	select {
	case p.ch() <- f:
	default:
		go p.worker(f)
	}
}

// Do runs f on a worker, as Go does. It returns f's result once f has
// returned.
func (p *Pool) Do(f func() error) error {
	done := make(chan error, 1)
	p.Go(func() { done <- f() })
	return <-done
}

func (p *Pool) worker(f func()) {
	wait := p.Idle
	if wait <= 0 {
		wait = IdleTimeout
	}
	idle := time.NewTimer(wait)
	defer idle.Stop()
	work := p.ch()
	for {
		f()
		f = nil // let f's captures go while idle
		idle.Reset(wait)
		select {
		case f = <-work:
		case <-idle.C:
			return
		}
	}
}
