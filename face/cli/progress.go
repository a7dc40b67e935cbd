package cli

import (
	"fmt"
	"io"
	"sync"
	"time"
)

// progress shows "resolving tools d/t" on a terminal stderr once resolution
// has taken longer than a delay, and erases it when resolution ends.
type progress struct {
	w     io.Writer
	timer *time.Timer

	mu          sync.Mutex
	done, total int
	shown       bool
	stopped     bool
}

func startProgress(w io.Writer, delay time.Duration) *progress {
	p := &progress{w: w}
	p.timer = time.AfterFunc(delay, func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		if !p.stopped {
			p.shown = true
			p.drawLocked()
		}
	})
	return p
}

func (p *progress) update(done, total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done, p.total = done, total
	if p.shown && !p.stopped {
		p.drawLocked()
	}
}

func (p *progress) drawLocked() {
	if p.total > 0 {
		fmt.Fprintf(p.w, "\r\x1b[Kresolving tools %d/%d…", p.done, p.total)
	} else {
		fmt.Fprint(p.w, "\r\x1b[Kresolving tools…")
	}
}

func (p *progress) stop() {
	if p == nil {
		return
	}
	p.timer.Stop()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stopped = true
	if p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}
