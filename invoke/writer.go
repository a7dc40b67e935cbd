package invoke

import "bytes"

// capWriter keeps at most max bytes; on the first write past max it keeps
// what fits, sets exceeded and calls kill once. It never reports an error,
// so the copying goroutine of os/exec drains the pipe until the killed
// process group closes it.
type capWriter struct {
	max      int64
	buf      []byte
	exceeded bool
	kill     func()

	onLine func(line []byte) // when set: called with each complete line kept, as it arrives
	done   int               // bytes of buf already passed to onLine
}

func (w *capWriter) Write(p []byte) (int, error) {
	if w.exceeded {
		return len(p), nil
	}
	if w.onLine != nil {
		defer w.lines()
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

// lines passes each complete line not yet passed to onLine.
func (w *capWriter) lines() {
	for {
		i := bytes.IndexByte(w.buf[w.done:], '\n')
		if i < 0 {
			return
		}
		w.onLine(w.buf[w.done : w.done+i])
		w.done += i + 1
	}
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

// Bytes returns a copy of the last max bytes written.
func (w *tailWriter) Bytes() []byte {
	b := w.buf
	if len(b) > w.max {
		b = b[len(b)-w.max:]
	}
	return append([]byte(nil), b...)
}
