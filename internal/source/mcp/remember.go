package mcp

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/toolhost/toolhost/internal/source/internal/cachefile"
)

// A start that failed is remembered across processes, beside the
// server's listing in [Options.CacheDir], so that a server that cannot
// start costs one wait, not one per command. While the remembered
// failure backs off, a start is refused at once with [ErrBackoff] and the
// cause and fix of the failure. The record holds for the spec it was
// made of: a changed spec (command, arguments, URL, start timeout,
// confinement) or a changed program starts at once. [Options.Retry]
// starts at once too. A start that succeeds forgets it.
// The waits are variables so that a test can shorten them.
var (
	rememberFirst = time.Minute // the wait after the first remembered failure
	rememberMax   = time.Hour   // the longest wait, after repeated failures
)

// minUnfinished is how long a start must have been under way when the
// Source is closed for it to count as a failure: a host that waited that
// long for the server and went on without it would wait again.
const minUnfinished = time.Second

// maxRecord bounds a remembered failure's file that is read.
const maxRecord = 64 << 10

// startRecord is the remembered failure of a server's starts.
// startVersion changes when the failed-start record's shape does.
const startVersion = 1

type startRecord struct {
	Version  int       `json:"version"`
	Key      string    `json:"key"`      // failKey of the spec
	Failures int       `json:"failures"` // failed starts in a row
	Failed   time.Time `json:"failed"`   // when the last one ended
	RetryAt  time.Time `json:"retryAt"`  // no start before this
	Cause    string    `json:"cause"`    // the last failure's cause
	Is       []string  `json:"is,omitempty"`
	Stderr   string    `json:"stderr,omitempty"` // its stderr, as an Error quotes it
	Fix      string    `json:"fix,omitempty"`
}

// The sentinels a remembered cause still matches, by name.
var rememberedKinds = map[string]error{
	"start": ErrStart, "handshake": ErrHandshake, "exited": ErrExited, "timeout": errTimeout,
	"refused": ErrRefused,
}

// recordPath is the file of spec's remembered failure, beside its
// listing's.
func (d *diskCache) recordPath(spec *Spec) string {
	return strings.TrimSuffix(d.path(spec), ".json") + ".failed.json"
}

// failKey is what a remembered failure holds for: the listing cache's key
// and the start timeout, or, when the program is not found, the spec
// alone (the program that appears changes it).
func failKey(spec *Spec) string {
	key, ok := specKey(spec)
	if !ok {
		raw, _ := json.Marshal(struct {
			Name, Command, Dir, URL, Confinement string
			Args, Env                            []string
		}{spec.Name, spec.Command, spec.Dir, spec.URL, spec.Confinement, spec.Args, spec.Env})
		sum := sha256.Sum256(raw)
		key = "missing:" + hex.EncodeToString(sum[:])
	}
	return key + "/" + spec.StartTimeout.String()
}

// loadRecord returns spec's remembered failure, nil when there is none
// or it is of another spec.
func (d *diskCache) loadRecord(spec *Spec) *startRecord {
	if d == nil {
		return nil
	}
	raw, _, err := cachefile.Read(d.recordPath(spec), maxRecord)
	if err != nil {
		return nil
	}
	var r startRecord
	if json.Unmarshal(raw, &r) != nil || r.Version != startVersion || r.Key != failKey(spec) || r.Failures < 1 {
		return nil
	}
	// A wait longer than any this package sets, or a failure in the
	// future (the clock went back), is not believed: it could keep the
	// server out for ever.
	if r.RetryAt.After(r.Failed.Add(rememberMax)) || r.Failed.After(time.Now().Add(time.Minute)) {
		return nil
	}
	return &r
}

// storeRecord writes r as spec's remembered failure, whole (a temporary
// file renamed over the old one).
func (d *diskCache) storeRecord(spec *Spec, r *startRecord) error {
	raw, err := json.Marshal(r)
	if err != nil {
		return err
	}
	_, err = cachefile.Write(d.dir, d.recordPath(spec), raw)
	return err
}

// backoff is the wait after n failed starts in a row: rememberFirst,
// doubling, at most rememberMax.
func backoff(n int) time.Duration {
	return min(rememberFirst<<min(n-1, 16), rememberMax)
}

// remember records err, the failure of a start, for the next processes.
// A program that is not found, and a bearer token's variable that is
// empty, are not remembered: they fail at once, before anything starts,
// and their fix (installing the program, exporting the variable) is made
// outside the spec. So the next start must see it.
func (s *Source) remember(err error) {
	var e *Error
	if s.cache == nil || !errors.As(err, &e) || NotFound(e) || errors.Is(e, ErrNoToken) || errors.Is(e, ErrClosed) || errors.Is(e, ErrBackoff) {
		return
	}
	r := &startRecord{Version: startVersion, Key: failKey(&s.spec), Failures: 1, Failed: time.Now(),
		Cause: e.Err.Error(), Stderr: e.Stderr, Fix: e.Fix}
	if old := s.cache.loadRecord(&s.spec); old != nil {
		r.Failures = old.Failures + 1
	}
	r.RetryAt = r.Failed.Add(backoff(r.Failures))
	for _, name := range slices.Sorted(maps.Keys(rememberedKinds)) {
		if errors.Is(e, rememberedKinds[name]) {
			r.Is = append(r.Is, name)
		}
	}
	if err := s.cache.storeRecord(&s.spec, r); err != nil {
		s.opts.Logger.Warn("mcp: cannot remember the failed start", "server", s.spec.Name, "error", err)
	}
}

// forgetFailure drops the remembered failure after a start that
// succeeded.
func (s *Source) forgetFailure() {
	if s.cache == nil {
		return
	}
	if err := os.Remove(s.cache.recordPath(&s.spec)); err != nil && !errors.Is(err, os.ErrNotExist) {
		s.opts.Logger.Warn("mcp: cannot forget the failed start", "server", s.spec.Name, "error", err)
	}
}

// backingOff returns the error of a start refused because a remembered
// failure backs off, nil when a start may go ahead.
func (s *Source) backingOff(op, tool string) error {
	if s.opts.Retry {
		return nil
	}
	r := s.cache.loadRecord(&s.spec)
	if r == nil {
		return nil
	}
	wait := time.Until(r.RetryAt)
	if wait <= 0 {
		return nil
	}
	fix := "it is tried again then; to try now, run toolhost check"
	if r.Fix != "" {
		fix = r.Fix + "; " + fix
	}
	return &Error{Source: s.spec.Name, Op: op, Tool: tool, Stderr: r.Stderr, Fix: fix,
		Err: &rememberedError{r: r, wait: wait}}
}

// rememberedError is a start refused while a remembered failure backs
// off: errors.Is ErrBackoff, and the sentinels of the failure's cause.
type rememberedError struct {
	r    *startRecord
	wait time.Duration
}

func (e *rememberedError) Error() string {
	n := ""
	if e.r.Failures > 1 {
		n = fmt.Sprintf(", %d failed starts in a row", e.r.Failures)
	}
	return fmt.Sprintf("%v: %s (at %s%s); next try in %v", ErrBackoff, e.r.Cause,
		e.r.Failed.Local().Format("15:04:05"), n, e.wait.Round(time.Second))
}

func (e *rememberedError) Is(target error) bool {
	if target == ErrBackoff {
		return true
	}
	for _, name := range e.r.Is {
		if kind := rememberedKinds[name]; kind != nil && errors.Is(kind, target) { // errTimeout is catalog.ErrTimeout too
			return true
		}
	}
	return false
}
