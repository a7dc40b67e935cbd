// Package pin records the definitions of the tools of sources a person
// does not build: MCP servers and remote catalogs. A definition that
// differs from its record is held until the person accepts it, so a
// trusted server cannot turn a tool's description into instructions for
// the model between two listings.
//
// A source's first listing is recorded as it is: the person trusted the
// configuration that names the source. Every later listing is compared,
// tool by tool, with the record.
package pin

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/toolhost/toolhost/internal/atomicfile"
)

// maxRecord bounds the size of a record file.
const maxRecord = 32 << 20

// Store keeps one record per source in Dir.
type Store struct {
	Dir string // "" keeps nothing: every listing is served as it is
}

// DefaultDir returns where toolhost keeps the records:
// $XDG_DATA_HOME/toolhost/pins, or ~/.local/share/toolhost/pins when
// XDG_DATA_HOME is unset or relative, "" when neither is known.
func DefaultDir() string {
	if x := os.Getenv("XDG_DATA_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "toolhost", "pins")
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return ""
	}
	return filepath.Join(home, ".local", "share", "toolhost", "pins")
}

// Record is the accepted definitions of one source's tools.
type Record struct {
	// Source identifies the source: its name and what reaches it (the
	// command line or URL). Another command or URL is another source.
	Source string `json:"source"`
	// Tools maps each tool's name on the source to its definition, as
	// [Canonical] writes it.
	Tools map[string]json.RawMessage `json:"tools"`
	Time  time.Time                  `json:"time"` // when it was last accepted
}

// Change is a tool whose definition is not the recorded one.
type Change struct {
	Tool string          // the tool's name on the source
	Old  json.RawMessage // the recorded definition; nil for a new tool
	New  json.RawMessage // the definition now listed
}

// Check compares defs, the source's listing by tool name, with its
// record. With no record yet it records defs and returns nil. Otherwise
// it returns the tools that are new or changed, by name. A tool the
// source no longer lists is no change.
func (s *Store) Check(source string, defs map[string]json.RawMessage) ([]Change, error) {
	if s.Dir == "" {
		return nil, nil
	}
	rec, err := s.Get(source)
	if err != nil {
		return nil, err
	}
	if rec == nil {
		return nil, s.Accept(source, defs)
	}
	var changes []Change
	for _, name := range slices.Sorted(maps.Keys(defs)) {
		now, err := Canonical(defs[name])
		if err != nil {
			return nil, fmt.Errorf("pin: tool %q of %s: %w", name, source, err)
		}
		if old, ok := rec.Tools[name]; !ok || !sameDef(old, now) {
			changes = append(changes, Change{Tool: name, Old: old, New: now})
		}
	}
	return changes, nil
}

// sameDef reports whether the recorded definition old is now, which is
// canonical. A record written with <, > and & escaped is canonicalized
// before it is compared again.
func sameDef(old, now json.RawMessage) bool {
	if bytes.Equal(old, now) {
		return true
	}
	c, err := Canonical(old)
	return err == nil && bytes.Equal(c, now)
}

// Get returns the source's record, nil when there is none.
func (s *Store) Get(source string) (*Record, error) {
	f, err := os.Open(s.path(source))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("pin: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxRecord+1))
	if err != nil {
		return nil, fmt.Errorf("pin: %w", err)
	}
	if len(data) > maxRecord {
		return nil, fmt.Errorf("pin: %s is larger than %d MiB: not a record; remove it, then accept the listing again", f.Name(), maxRecord>>20)
	}
	var rec Record
	if err := json.Unmarshal(data, &rec); err != nil || rec.Source != source {
		return nil, fmt.Errorf("pin: %s is not the record of %s: remove it, then accept the listing again", f.Name(), source)
	}
	return &rec, nil
}

// Accept records defs as the source's accepted definitions, in place of
// any earlier record.
func (s *Store) Accept(source string, defs map[string]json.RawMessage) error {
	if s.Dir == "" {
		return errors.New("pin: no place for records: set XDG_DATA_HOME or HOME")
	}
	rec := Record{Source: source, Tools: make(map[string]json.RawMessage, len(defs)), Time: time.Now().UTC()}
	for name, d := range defs {
		c, err := Canonical(d)
		if err != nil {
			return fmt.Errorf("pin: tool %q of %s: %w", name, source, err)
		}
		rec.Tools[name] = c
	}
	// The definitions keep their bytes: json.Marshal would write <, > and
	// & as \u003c and so on. The record would then never equal the
	// listing, and would grow up to six times its size.
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(&rec); err != nil {
		return fmt.Errorf("pin: %w", err)
	}
	return writeAtomic(s.Dir, s.path(source), b.Bytes())
}

// AcceptChanges records changes on top of the source's record: the
// other tools keep their recorded definitions.
func (s *Store) AcceptChanges(source string, changes []Change) error {
	rec, err := s.Get(source)
	if err != nil {
		return err
	}
	defs := map[string]json.RawMessage{}
	if rec != nil {
		maps.Copy(defs, rec.Tools)
	}
	for _, c := range changes {
		defs[c.Tool] = c.New
	}
	return s.Accept(source, defs)
}

// path is the record file of source.
func (s *Store) path(source string) string {
	h := sha256.Sum256([]byte(source))
	return filepath.Join(s.Dir, hex.EncodeToString(h[:16])+".json")
}

// Canonical returns the JSON value def with object keys sorted and no
// insignificant space, so that two listings of one definition compare
// equal byte for byte.
func Canonical(def json.RawMessage) (json.RawMessage, error) {
	var v any
	dec := json.NewDecoder(bytes.NewReader(def))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("not JSON: %w", err)
	}
	if dec.More() {
		return nil, errors.New("not one JSON value")
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b) // maps encode with sorted keys
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// writeAtomic writes data to file in dir, owner-only, through a
// temporary file renamed over it.
func writeAtomic(dir, file string, data []byte) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("pin: %w", err)
	}
	if err := atomicfile.Write(file, data, 0o600); err != nil {
		return fmt.Errorf("pin: %w", err)
	}
	return nil
}

// Held is the error of a tool held back because its definition is not
// the accepted one.
type Held struct {
	Source string // the source's identity, as [Store.Check] was given it
	Change Change
}

func (h *Held) Error() string {
	if h.Change.Old == nil {
		return fmt.Sprintf("tool %q is new since you accepted the listing: held, not served", h.Change.Tool)
	}
	return fmt.Sprintf("tool %q changed its definition since you accepted it: held, not served", h.Change.Tool)
}

// HeldFix is the fix of a [Held] tool.
const HeldFix = "review the difference with toolhost check, then accept it with toolhost trust"
