package sandbox

import (
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// expandTTL is how long an expansion of rules is reused while none of the
// directories it listed changed. The probes of a cold listing, one per
// binary, then read the split directories once.
const expandTTL = time.Second

// expansions are expand's recent answers, by their rules.
var expansions struct {
	sync.Mutex
	m   map[string]*expansion
	gen uint64
}

// An expansion is one answer of expand, with the directories it listed
// as they were: an entry added, removed or replaced in one changes its
// modification time, and the expansion is made again. It is in
// expansions from the moment one caller starts making it. The callers
// that ask for the same rules meanwhile wait for it, instead of listing
// the same directories at the same time. Each such listing would have
// made a shared probe layer of its own (probelayers_linux.go).
type expansion struct {
	ready  chan struct{} // closed once grants and listed are set
	at     time.Time
	gen    uint64 // tells expansions of the same rules apart
	grants []PathGrant
	listed []dirStamp
}

type dirStamp struct {
	path string
	ino  uint64
	mtim syscall.Timespec
}

// stamp returns dir's stamp, ok false when it cannot be read.
func stamp(dir string) (dirStamp, bool) {
	var st syscall.Stat_t
	if syscall.Lstat(dir, &st) != nil {
		return dirStamp{}, false
	}
	return dirStamp{dir, st.Ino, st.Mtim}, true
}

// fresh reports whether e may be reused now.
func (e *expansion) fresh(now time.Time) bool {
	if now.Sub(e.at) >= expandTTL {
		return false
	}
	for _, d := range e.listed {
		if s, ok := stamp(d.path); !ok || s != d {
			return false
		}
	}
	return true
}

// expandCached is [expand], answered from an expansion of the same rules
// made within expandTTL whose listed directories have not changed; gen
// tells which expansion answered. The grants are the expansion's own:
// the caller must not change them in place. Their capacity is their
// length, so an append copies them.
func expandCached(rules map[string]uint64) (grants []PathGrant, gen uint64) {
	var b strings.Builder
	for _, p := range slices.Sorted(maps.Keys(rules)) {
		b.WriteString(p)
		b.WriteByte(0)
		b.WriteString(strconv.FormatUint(rules[p], 16))
		b.WriteByte(0)
	}
	key := b.String()
	now := time.Now()
	var e *expansion
	for {
		expansions.Lock()
		e = expansions.m[key]
		if e == nil {
			break // make it, still holding the lock
		}
		expansions.Unlock()
		<-e.ready
		if e.fresh(now) {
			return slices.Clip(e.grants), e.gen
		}
		expansions.Lock()
		if expansions.m[key] == e {
			delete(expansions.m, key)
		}
		expansions.Unlock()
	}
	if expansions.m == nil {
		expansions.m = map[string]*expansion{}
	}
	maps.DeleteFunc(expansions.m, func(_ string, x *expansion) bool { return now.Sub(x.at) >= expandTTL })
	expansions.gen++
	e = &expansion{ready: make(chan struct{}), at: now, gen: expansions.gen}
	expansions.m[key] = e
	expansions.Unlock()
	// A change between the listing and the stamp below is seen once the
	// expansion expires.
	grants, listed := expandReading(rules)
	for _, d := range listed {
		if s, ok := stamp(d); ok {
			e.listed = append(e.listed, s)
		}
	}
	e.grants = grants
	close(e.ready)
	return slices.Clip(grants), e.gen
}
