package ratelimit

import (
	"testing"
	"time"
)

func TestSeconds(t *testing.T) {
	for _, tt := range []struct {
		wait time.Duration
		want int64
	}{
		{-time.Second, 0}, {0, 0}, {1, 1}, {time.Second, 1}, {time.Second + 1, 2},
		{59*time.Second + 999*time.Millisecond, 60}, {time.Minute, 60},
	} {
		if got := seconds(tt.wait); got != tt.want {
			t.Errorf("seconds(%v) = %d, want %d", tt.wait, got, tt.want)
		}
	}
}
