package mcp

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestValidity: the validity of a listing follows the freshness rules of
// trusted (it expires when the listing stops being trusted, and there is
// none for a listing never trusted without asking), is had only for the
// listing held and written to the cache, and stops holding when the
// cache file, the program or a script argument changes.
func TestValidity(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	for _, tt := range []struct {
		name   string
		url    bool
		maxAge time.Duration
		l      Listing
		want   time.Time // zero: no validity
	}{
		{name: "no ttl: max age", maxAge: time.Hour, l: Listing{Fetched: now.Add(-time.Minute)}, want: now.Add(time.Hour - time.Minute)},
		{name: "ttl beats max age", maxAge: time.Minute, l: Listing{Fetched: now, TTL: 2 * time.Hour}, want: now.Add(2 * time.Hour)},
		{name: "ttl run out", maxAge: 24 * time.Hour, l: Listing{Fetched: now.Add(-time.Hour), TTL: time.Minute}},
		{name: "max age run out", maxAge: time.Hour, l: Listing{Fetched: now.Add(-2 * time.Hour)}},
		{name: "max age negative: never", maxAge: -1, l: Listing{Fetched: now}},
		{name: "http, 2026 listing with ttl 0: stale at once", url: true, maxAge: time.Hour, l: Listing{Fetched: now, Protocol: "2026-07-28"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			script := filepath.Join(dir, "server.js")
			if err := os.WriteFile(script, []byte("v1"), 0o644); err != nil {
				t.Fatal(err)
			}
			spec := Spec{Name: "x", Command: exe, Args: []string{script, "--flag"}, MaxAge: tt.maxAge}
			if tt.url {
				spec = Spec{Name: "x", URL: "http://127.0.0.1:1/mcp", MaxAge: tt.maxAge}
			}
			d := &diskCache{dir: filepath.Join(dir, "cache")}
			l := tt.l
			l.Hash = "h"
			o, err := d.store(&spec, &l)
			if err != nil || o == nil {
				t.Fatalf("store = %v, %v", o, err)
			}
			s := &Source{spec: spec, listing: &l, origin: o}
			v, ok := s.Validity(&l)
			if ok != !tt.want.IsZero() || ok && !v.Expires.Equal(tt.want) {
				t.Fatalf("Validity = %+v, %v; want expiry %v", v, ok, tt.want)
			}
			if !ok {
				return
			}
			if !v.Holds(now) || v.Holds(tt.want) {
				t.Errorf("Holds: now %v, at expiry %v; want true, false", v.Holds(now), v.Holds(tt.want))
			}
			other := l
			other.Hash = "other"
			if _, ok := s.Validity(&other); ok {
				t.Error("Validity of a listing the source does not hold")
			}
			if _, ok := (&Source{spec: spec, listing: &l}).Validity(&l); ok {
				t.Error("Validity of a listing not written to the cache")
			}
			later := time.Now().Add(time.Hour)
			if err := os.Chtimes(script, later, later); err != nil {
				t.Fatal(err)
			}
			if v.Holds(now) {
				t.Error("holds after the script changed")
			}
			if err := os.Chtimes(script, time.Unix(0, v.Files[1].MTime), time.Unix(0, v.Files[1].MTime)); err != nil {
				t.Fatal(err)
			}
			if !v.Holds(now) {
				t.Fatal("does not hold with the script as it was")
			}
			if err := os.Chtimes(v.Cache.Path, later, later); err != nil {
				t.Fatal(err)
			}
			if v.Holds(now) {
				t.Error("holds after the cache file changed")
			}
		})
	}
}
