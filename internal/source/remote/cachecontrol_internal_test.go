package remote

import (
	"testing"
	"time"
)

func TestCacheControl(t *testing.T) {
	tests := []struct {
		in      string
		maxAge  time.Duration
		noStore bool
	}{
		{"public, max-age=60", time.Minute, false}, // toolhost's
		{"", 0, false},
		{"MAX-AGE=5", 5 * time.Second, false},
		{`max-age="30"`, 30 * time.Second, false},
		{"max-age=abc", 0, false},
		{"max-age=-5", 0, false},
		{"no-cache, max-age=60", 0, false},
		{"max-age=60, no-store", 0, true},
		{"max-age=99999999999999", 365 * 24 * time.Hour, false},
	}
	for _, tt := range tests {
		maxAge, noStore := cacheControl(tt.in)
		if maxAge != tt.maxAge || noStore != tt.noStore {
			t.Errorf("cacheControl(%q) = %v, %v; want %v, %v", tt.in, maxAge, noStore, tt.maxAge, tt.noStore)
		}
	}
}
