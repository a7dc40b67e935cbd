package cli

import (
	"testing"
	"time"
)

func TestDurationText(t *testing.T) {
	for d, want := range map[time.Duration]string{
		60 * time.Second:        "60s",
		30 * time.Second:        "30s",
		10 * time.Minute:        "10m",
		1500 * time.Millisecond: "1.5s",
	} {
		if got := durationText(d); got != want {
			t.Errorf("durationText(%v) = %q, want %q", d, got, want)
		}
	}
}
