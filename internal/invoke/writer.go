package invoke

import (
	"bytes"
	"io"
	"sync"
)

// capWriter keeps at most max bytes. On the first write past max it keeps
// what fits, sets exceeded and calls kill once. It never reports an error.
// So the copying goroutine of os/exec drains the pipe until the killed
// process group closes it.
//
// With onLine set, the complete lines are passed to it from a goroutine of
// their own ([newCapWriter]). They are never passed from Write. onLine may
// be slow, as a face forwarding events to a slow client is. It must not
// hold the copying goroutine past the process's exit. Else os/exec's
// WaitDelay closes the pipe on the lines still in it, and the outcome is
// cut. [capWriter.finish] waits until every line written has been passed.
type capWriter struct {
	max  int64
	kill func()

	mu       sync.Mutex
	buf      []byte
	exceeded bool
	finished bool // finish was called: more is closed

	onLine func(line []byte) // when set: called with each complete line kept, in order
	done   int               // bytes of buf already passed to onLine (the delivering goroutine's)
	more   chan struct{}     // a Write since the last look; closed by finish
	passed chan struct{}     // closed when the delivering goroutine has passed the last line
}

// newCapWriter returns a capWriter keeping at most max bytes. It calls
// kill when more come. It calls onLine, when not nil, with each line, in
// order. It does so from a goroutine that [capWriter.finish] ends.
func newCapWriter(max int64, kill func(), onLine func([]byte)) *capWriter {
	w := &capWriter{max: max, kill: kill, onLine: onLine}
	if onLine != nil {
		w.more = make(chan struct{}, 1)
		w.passed = make(chan struct{})
		go w.deliver()
	}
	return w
}

func (w *capWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.exceeded {
		return len(p), nil
	}
	if w.more != nil && !w.finished { // (os/exec may still write after Wait returned, past WaitDelay)
		defer func() { // under mu, which finish takes to close more
			select {
			case w.more <- struct{}{}:
			default: // a look is due already
			}
		}()
	}
	if room := w.max - int64(len(w.buf)); int64(len(p)) > room {
		w.buf = append(w.buf, p[:room]...)
		w.exceeded = true
		if w.kill != nil {
			w.kill()
		}
		return len(p), nil
	}
	w.buf = append(w.buf, p...)
	return len(p), nil
}

// ReadFrom writes what r gives until EOF, through a shared buffer.
// os/exec copies a child's output with it, without a buffer of its own.
func (w *capWriter) ReadFrom(r io.Reader) (int64, error) { return copyThrough(w.Write, r) }

// deliver passes each complete line to onLine as it comes, until finish.
func (w *capWriter) deliver() {
	defer close(w.passed)
	for {
		_, open := <-w.more
		w.mu.Lock()
		kept := w.buf // appended to only: the bytes seen stay as they are
		w.mu.Unlock()
		for {
			i := bytes.IndexByte(kept[w.done:], '\n')
			if i < 0 {
				break
			}
			w.onLine(kept[w.done : w.done+i])
			w.done += i + 1
		}
		if !open {
			return
		}
	}
}

// finish waits until onLine has been given every complete line written.
// Call it once the writes have ended (after the command's Wait).
func (w *capWriter) finish() {
	if w == nil || w.more == nil { // no command made, or no onLine
		return
	}
	w.mu.Lock()
	w.finished = true
	close(w.more)
	w.mu.Unlock()
	<-w.passed
}

// bytes is what was kept.
func (w *capWriter) bytes() []byte {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf
}

// tailWriter keeps the last max bytes written to it, in at most 2·max
// bytes of memory.
type tailWriter struct {
	max int
	buf []byte
}

func (w *tailWriter) Write(p []byte) (int, error) {
	n := len(p)
	if len(p) >= w.max {
		w.buf = append(w.buf[:0], p[len(p)-w.max:]...)
		return n, nil
	}
	if len(w.buf)+len(p) > 2*w.max {
		keep := w.buf[len(w.buf)-(w.max-len(p)):]
		w.buf = append(w.buf[:0], keep...)
	}
	w.buf = append(w.buf, p...)
	return n, nil
}

// ReadFrom writes what r gives until EOF, through a shared buffer.
func (w *tailWriter) ReadFrom(r io.Reader) (int64, error) { return copyThrough(w.Write, r) }

// Bytes returns a copy of the last max bytes written.
func (w *tailWriter) Bytes() []byte {
	b := w.buf
	if len(b) > w.max {
		b = b[len(b)-w.max:]
	}
	return append([]byte(nil), b...)
}

// copyBufs are the buffers of copyThrough. A one-shot host runs without
// collections, so a buffer made per copy would be fresh memory each time.
var copyBufs = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

// copyThrough passes what r gives to write until EOF, as io.Copy does.
func copyThrough(write func([]byte) (int, error), r io.Reader) (int64, error) {
	bp := copyBufs.Get().(*[]byte)
	defer copyBufs.Put(bp)
	var n int64
	for {
		k, err := r.Read(*bp)
		if k > 0 {
			if _, werr := write((*bp)[:k]); werr != nil {
				return n, werr
			}
			n += int64(k)
		}
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
}
