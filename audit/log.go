package audit

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// Defaults of [Options].
const (
	defaultMaxSize      = 16 << 20 // bytes of one file before it is rotated
	DefaultMaxFiles     = 3        // rotated files kept beside the current one
	DefaultMaxArguments = 4 << 10  // bytes of a call's arguments kept
)

// Options configures a [Log]. A nil *Options means all defaults.
type Options struct {
	// MaxSize is the size in bytes past which the file is rotated before the
	// next line is written. If zero, it is [defaultMaxSize].
	MaxSize int64
	// MaxFiles is how many rotated files (FILE.1 the newest … FILE.N) are
	// kept. Older ones are removed. If zero, [DefaultMaxFiles]. Negative:
	// none (the file is truncated instead).
	MaxFiles int
	// MaxArguments is how many bytes of a call's redacted arguments a line
	// keeps. If zero, [DefaultMaxArguments].
	MaxArguments int
}

// Log appends [Record]s to an audit file, one JSON line each. It is safe
// for concurrent use. A nil *Log writes nothing. So a caller may call
// [Log.Write] whether or not auditing is on.
//
// # Crash guarantee
//
// Each line is encoded into a buffer of its own by the calling goroutine.
// It is handed to the kernel with one write(2) on a file opened O_APPEND.
// Nothing is buffered in the process between calls, and there is no
// channel or writer goroutine. Once Write returns, the line is in the
// kernel's page cache. It survives the process being killed: SIGKILL, a
// panic, an OOM kill. A crash loses only the lines whose Write had not yet
// reached write(2). At worst it tears the one line the kernel was copying.
// That is a short write, which a regular file gives only when the disk is
// full or the file too large. The reader skips and reports such a torn
// last line. There is no fsync. A power loss may lose what the kernel had
// not yet flushed. That trade was taken so that no call waits for the
// disk.
//
// # Cost
//
// A call pays for encoding its line and one write(2) under a mutex. The
// encoding uses no reflection and a pooled buffer. The arguments are
// decoded only when a key or a registered secret may need redacting. The
// other writers wait on the mutex only for the system call itself.
//
// # Trade-offs
//
// Rotation is by size, per process. Two processes appending to one file
// keep whole lines (O_APPEND). But each rotates by its own count of the
// size. So run one serve per audit file. The secrets registered with
// [Log.AddSecret] are kept for the Log's lifetime.
type Log struct {
	path     string // fixed at creation
	maxSize  int64
	maxFiles int
	maxArgs  int
	secrets  secretSet
	// workspace is [Log.SetWorkspace]'s root, for the lines that name none.
	workspace atomic.Pointer[string]

	mu   sync.Mutex // guards the fields below
	f    *os.File
	size int64
}

var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

// Open opens the audit file at path for appending. It creates the file
// and its directory, owner-only.
func Open(path string, opts *Options) (*Log, error) {
	l := &Log{path: path, maxSize: defaultMaxSize, maxFiles: DefaultMaxFiles, maxArgs: DefaultMaxArguments}
	if opts != nil {
		if opts.MaxSize > 0 {
			l.maxSize = opts.MaxSize
		}
		if opts.MaxFiles > 0 {
			l.maxFiles = opts.MaxFiles
		} else if opts.MaxFiles < 0 {
			l.maxFiles = 0
		}
		if opts.MaxArguments > 0 {
			l.maxArgs = opts.MaxArguments
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("audit: %w (give another file with --audit FILE, or --audit off)", err)
	}
	if err := l.open(); err != nil {
		return nil, err
	}
	return l, nil
}

func (l *Log) open() error {
	f, err := os.OpenFile(l.path, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("audit: %w (give another file with --audit FILE, or --audit off)", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return fmt.Errorf("audit: %w", err)
	}
	l.f, l.size = f, st.Size()
	// A crash mid-write may leave a torn last line. The file is then ended
	// with a newline first. So the fragment stays a line of its own and
	// the next line is whole.
	if l.size > 0 {
		last := make([]byte, 1)
		if _, err := f.ReadAt(last, l.size-1); err == nil && last[0] != '\n' {
			n, err := f.Write([]byte{'\n'})
			l.size += int64(n)
			if err != nil {
				f.Close()
				return fmt.Errorf("audit: %w", err)
			}
		}
	}
	return nil
}

// Path returns the file the log appends to.
func (l *Log) Path() string {
	if l == nil {
		return ""
	}
	return l.path
}

// AddSecret registers values that never appear in a line. [Log.Write]
// replaces them by redacted wherever they occur in a string of the
// arguments. The caller registers each secret it resolves before writing
// the call's record. On the lead's call path that is every secret env
// value of the entry, and the serve token. Empty values are ignored.
func (l *Log) AddSecret(values ...string) {
	if l != nil {
		l.secrets.add(values...)
	}
}

// errClosed is returned by [Log.Write] after [Log.Close].
var errClosed = errors.New("audit: log closed")

// Write appends r as one line. It sets r.Time to now when zero. The
// arguments are redacted ([Redact], with the registered secrets). They
// are capped at [Options.MaxArguments]. r itself is not changed
// otherwise.
func (l *Log) Write(r *Record) error {
	if l == nil {
		return nil
	}
	rec := *r
	if rec.Time.IsZero() {
		rec.Time = time.Now()
	}
	if ws := l.workspace.Load(); rec.Workspace == "" && ws != nil {
		rec.Workspace = *ws
	}
	bp := bufPool.Get().(*[]byte)
	defer bufPool.Put(bp)
	// The redacted arguments first, at the buffer's end. Then the line.
	args := redact((*bp)[:0], rec.Arguments, l.secrets.load())
	args, rec.ArgumentsSize = capArguments(args, l.maxArgs)
	line := rec.appendJSON(args[len(args):], args)
	line = append(line, '\n')
	if cap(line) > cap(*bp) {
		*bp = line[:0]
	}
	if cap(*bp) > 1<<20 {
		*bp = make([]byte, 0, 1024) // one huge line does not stay pinned in the pool
	}
	return l.write(line)
}

// SetWorkspace makes root the workspace of the lines written from now on
// whose [Record] names none. The process serves that workspace's
// configuration. One log file holds the calls of every workspace.
// `toolhost audit --workspace` selects them by it.
func (l *Log) SetWorkspace(root string) {
	if l != nil {
		l.workspace.Store(&root)
	}
}

// write hands line to the kernel in one write(2). It rotates first if the
// file would grow past the maximum.
func (l *Log) write(line []byte) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return errClosed
	}
	if l.size > 0 && l.size+int64(len(line)) > l.maxSize {
		if err := l.rotate(); err != nil {
			return err
		}
	}
	n, err := l.f.Write(line)
	l.size += int64(n)
	if err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	return nil
}

// rotate renames FILE.(N-1)… FILE.1 one up, dropping FILE.N. It renames
// FILE to FILE.1 and opens a new FILE. l.mu is held.
func (l *Log) rotate() error {
	if err := l.f.Close(); err != nil {
		return fmt.Errorf("audit: rotate: %w", err)
	}
	l.f = nil
	if l.maxFiles == 0 {
		if err := os.Remove(l.path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("audit: rotate: %w", err)
		}
	} else {
		for i := l.maxFiles - 1; i >= 1; i-- {
			err := os.Rename(rotated(l.path, i), rotated(l.path, i+1))
			if err != nil && !errors.Is(err, os.ErrNotExist) {
				return fmt.Errorf("audit: rotate: %w", err)
			}
		}
		if err := os.Rename(l.path, rotated(l.path, 1)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("audit: rotate: %w", err)
		}
	}
	return l.open()
}

// rotated names the i-th rotated file of path: path.i.
func rotated(path string, i int) string { return path + "." + strconv.Itoa(i) }

// Close closes the file. Later writes return errClosed.
func (l *Log) Close() error {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	return err
}

// TokenID names a bearer token in the log without revealing it. It is
// "t-" and the first 12 hex digits of its SHA-256. It tells apart the
// tokens a server was given. It is not a hiding place for a guessable
// token. It is "" for no token.
func TokenID(token string) string {
	if token == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(token))
	return "t-" + hex.EncodeToString(sum[:6])
}

// DefaultPath returns the audit file of `serve`. That is
// $XDG_STATE_HOME/toolhost/audit.jsonl. It is
// ~/.local/state/toolhost/audit.jsonl when XDG_STATE_HOME is unset or
// relative. It is "" when neither is known. getenv reads the environment.
// nil means os.Getenv.
func DefaultPath(getenv func(string) string) string {
	if getenv == nil {
		getenv = os.Getenv
	}
	if x := getenv("XDG_STATE_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "toolhost", "audit.jsonl")
	}
	home := getenv("HOME")
	if home == "" || !filepath.IsAbs(home) {
		return ""
	}
	return filepath.Join(home, ".local", "state", "toolhost", "audit.jsonl")
}
