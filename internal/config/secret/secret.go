package secret

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// Masked is how a [Value] prints.
const Masked = "[secret]"

// The kinds of [Ref].
const (
	KindEnv     = "env"     // a variable of toolhost's environment
	KindFile    = "file"    // an owner-only file
	KindKeyring = "keyring" // the OS keyring
)

// Sentinel errors of [Parse] and [Ref.Resolve]. The messages wrap them
// with the reference and the fix.
var (
	ErrSyntax      = errors.New("not a secret reference")
	ErrNotSet      = errors.New("not set")
	ErrPermissions = errors.New("not an owner-only file")
	ErrNoKeyring   = errors.New("keyring not available on this system")
)

// Ref is a reference to a secret: where its value is read. It holds no
// secret and may be printed.
type Ref struct {
	Kind string // [KindEnv], [KindFile] or [KindKeyring]
	Name string // the variable, the file's path, the keyring item
}

// String returns the reference as written: "env:VAR", "file:PATH",
// "keyring:NAME".
func (r Ref) String() string { return r.Kind + ":" + r.Name }

// MarshalText writes the reference as [Ref.String] does.
func (r Ref) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// Parse reads a reference: "env:VAR", "file:PATH" or "keyring:NAME". A
// relative PATH is kept as written, and the caller anchors it. Package
// config anchors it at the configuration file's directory. "~/" at its
// start means the home directory at resolution time.
func Parse(s string) (Ref, error) {
	kind, name, ok := strings.Cut(s, ":")
	switch {
	case !ok || (kind != KindEnv && kind != KindFile && kind != KindKeyring):
		return Ref{}, syntaxErrorf("%q: write \"env:VAR\" (a variable of toolhost's environment), \"file:PATH\" (an owner-only file) or \"keyring:NAME\"", s)
	case name == "":
		return Ref{}, syntaxErrorf("%q names no %s after %q", s, map[string]string{KindEnv: "variable", KindFile: "file", KindKeyring: "keyring item"}[kind], kind+":")
	case kind == KindKeyring && strings.HasPrefix(name, "-"):
		return Ref{}, syntaxErrorf("%q: a keyring item's name does not start with \"-\" (the keyring's client would read it as an option)", s)
	case kind == KindEnv && strings.ContainsAny(name, "=\x00"):
		return Ref{}, syntaxErrorf("%q: a variable name has no \"=\" or NUL", s)
	case strings.ContainsRune(name, 0):
		return Ref{}, syntaxErrorf("%q: a name has no NUL", s)
	}
	return Ref{Kind: kind, Name: name}, nil
}

// SyntaxError is a string that [Parse] does not read as a reference. It
// matches [ErrSyntax].
type SyntaxError struct {
	Why string // what is wrong, quoting the string: `"env" names no variable after "env:"`
}

func syntaxErrorf(format string, args ...any) error {
	return &SyntaxError{Why: fmt.Sprintf(format, args...)}
}

// Error returns "not a secret reference: " and Why.
func (e *SyntaxError) Error() string { return ErrSyntax.Error() + ": " + e.Why }

// Is reports whether target is ErrSyntax.
func (e *SyntaxError) Is(target error) bool { return target == ErrSyntax }

// maxFile bounds a secret file.
const maxFile = 64 << 10

// Options are where [Ref.Resolve] reads. A nil *Options means the process's
// own environment and home directory.
type Options struct {
	LookupEnv func(string) (string, bool) // if nil, os.LookupEnv
	Home      string                      // for "~/"; if "", os.UserHomeDir
	// KeyringTimeout bounds a "keyring:" lookup. If zero,
	// [DefaultKeyringTimeout].
	KeyringTimeout time.Duration

	goos string // the system whose keyring client runs; if "", runtime.GOOS (tests set it)
}

// Resolve reads the value. Its errors name the reference, the cause and
// the fix, never the value (nor a file's content).
func (r Ref) Resolve(opts *Options) (Value, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.LookupEnv == nil {
		o.LookupEnv = os.LookupEnv
	}
	switch r.Kind {
	case KindEnv:
		v, ok := o.LookupEnv(r.Name)
		if !ok {
			return Value{}, fmt.Errorf("secret %q: the variable %s is %w in toolhost's environment: set it where toolhost starts (export %s=…), or change the reference", r.String(), r.Name, ErrNotSet, r.Name)
		}
		return Value{v: v}, nil
	case KindFile:
		return r.readFile(o.Home)
	case KindKeyring:
		if o.goos == "" {
			o.goos = runtime.GOOS
		}
		return r.readKeyring(o.goos, o.KeyringTimeout)
	}
	return Value{}, fmt.Errorf("secret %q: %w: the kind must be env, file or keyring", r.String(), ErrSyntax)
}

// readFile reads an owner-only file without its one trailing line break.
// The file is checked on the open descriptor, so there is no race with a
// rename.
func (r Ref) readFile(home string) (Value, error) {
	path := r.Name
	if rest, ok := strings.CutPrefix(path, "~/"); ok {
		if home == "" {
			h, err := os.UserHomeDir()
			if err != nil {
				return Value{}, fmt.Errorf("secret %q: %w (write the path in full)", r.String(), err)
			}
			home = h
		}
		path = filepath.Join(home, rest)
	}
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return Value{}, fmt.Errorf("secret %q: %s does not exist: create it (owner-only: chmod 600 %s) or change the reference", r.String(), path, path)
		}
		return Value{}, fmt.Errorf("secret %q: %w", r.String(), err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return Value{}, fmt.Errorf("secret %q: %w", r.String(), err)
	}
	if !st.Mode().IsRegular() {
		return Value{}, fmt.Errorf("secret %q: %s is not a regular file", r.String(), path)
	}
	if perm := st.Mode().Perm(); perm&0o077 != 0 {
		return Value{}, fmt.Errorf("secret %q: %s has mode %04o, open to others: %w; make it owner-only with chmod 600 %s", r.String(), path, perm, ErrPermissions, path)
	}
	if err := checkOwner(st); err != nil {
		return Value{}, fmt.Errorf("secret %q: %s %w; give it to your user (chown) or keep the secret in a file of your own, chmod 600", r.String(), path, err)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxFile+1))
	if err != nil {
		return Value{}, fmt.Errorf("secret %q: %w", r.String(), err)
	}
	if len(data) > maxFile {
		return Value{}, fmt.Errorf("secret %q: %s is larger than %d KiB, too large for a secret", r.String(), path, maxFile>>10)
	}
	s := string(data)
	if t, ok := strings.CutSuffix(s, "\n"); ok {
		s = strings.TrimSuffix(t, "\r")
	}
	return Value{v: s}, nil
}

// Value is a secret's text. It prints as [Masked] through every printing
// path. Only [Value.Reveal] returns the text. The zero Value is empty.
type Value struct{ v string }

// Reveal returns the secret's text, for the tool's environment only.
func (v Value) Reveal() string { return v.v }

// String returns [Masked].
func (Value) String() string { return Masked }

// GoString returns [Masked] (for %#v).
func (Value) GoString() string { return Masked }

// Format prints [Masked] for every verb and flag (%v, %+v, %s, %q, %x, %d…).
func (Value) Format(f fmt.State, _ rune) { io.WriteString(f, Masked) }

// MarshalJSON writes "[secret]".
func (Value) MarshalJSON() ([]byte, error) { return []byte(`"` + Masked + `"`), nil }

// MarshalText writes [Masked] (TOML, YAML, map keys…).
func (Value) MarshalText() ([]byte, error) { return []byte(Masked), nil }

// LogValue makes log/slog print [Masked].
func (Value) LogValue() slog.Value { return slog.StringValue(Masked) }
