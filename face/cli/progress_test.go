package cli

import (
	"testing"
	"time"
)

func TestProgress(t *testing.T) {
	var buf syncBuffer
	p := startProgress(&buf, 10*time.Millisecond)
	p.update(1, 3)
	time.Sleep(50 * time.Millisecond)
	p.update(2, 3)
	p.stop()
	p.update(3, 3) // after stop: nothing
	want := "\r\x1b[Kresolving tools 1/3…\r\x1b[Kresolving tools 2/3…\r\x1b[K"
	if got := buf.String(); got != want {
		t.Errorf("progress output %q, want %q", got, want)
	}

	var quick syncBuffer
	p = startProgress(&quick, time.Hour)
	p.update(1, 1)
	p.stop()
	if quick.String() != "" {
		t.Errorf("fast resolution printed %q, want nothing", quick.String())
	}
	var nilProgress *progress
	nilProgress.stop() // no terminal: no progress, stop is a no-op
}
