package bound

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// URIPrefix starts the URI of every kept result.
const URIPrefix = "toolhost://result/"

// DefaultKeep is how long a kept result stays when the store sets no time.
const DefaultKeep = 24 * time.Hour

// ErrNotKept is returned by [Store.Read] for a URI that names no kept
// result: unknown, removed, or not a result's URI.
var ErrNotKept = errors.New("no such result: it was never kept here, or it was removed")

// Store keeps whole results, each in an owner-only file of Dir, for the
// life of the process or Keep, whichever ends first. It is safe for
// concurrent use.
type Store struct {
	Dir  string        // $XDG_STATE_HOME/toolhost/results in toolhost
	Keep time.Duration // how long a result stays; zero: DefaultKeep

	mu    sync.Mutex
	files []string // written by this process, removed by Close
}

// DefaultDir returns $XDG_STATE_HOME/toolhost/results, or
// ~/.local/state/toolhost/results, "" when neither is known.
func DefaultDir() string {
	if x := os.Getenv("XDG_STATE_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "toolhost", "results")
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return ""
	}
	return filepath.Join(home, ".local", "state", "toolhost", "results")
}

// Keeper returns s.Put as a [Keeper].
func (s *Store) Keeper() Keeper { return s.Put }

// Put keeps whole and returns its URI. It also removes the results of
// every process that are older than the store's time.
func (s *Store) Put(whole []byte) (string, error) {
	if s.Dir == "" {
		return "", errors.New("no place to keep results: set XDG_STATE_HOME or HOME")
	}
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return "", err
	}
	if err := os.Chmod(s.Dir, 0o700); err != nil { // owner-only, even if it was made otherwise
		return "", err
	}
	s.sweep()
	var id [16]byte
	rand.Read(id[:])
	name := hex.EncodeToString(id[:])
	file := filepath.Join(s.Dir, name+".json")
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", err
	}
	_, err = f.Write(whole)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(file)
		return "", err
	}
	s.mu.Lock()
	s.files = append(s.files, file)
	s.mu.Unlock()
	return URIPrefix + name, nil
}

// Read returns the whole result kept at uri. A store without a Dir,
// which keeps nothing, reads nothing.
func (s *Store) Read(uri string) ([]byte, error) {
	name, ok := strings.CutPrefix(uri, URIPrefix)
	if !ok || s.Dir == "" || len(name) != 32 || strings.Trim(name, "0123456789abcdef") != "" {
		return nil, ErrNotKept
	}
	file := filepath.Join(s.Dir, name+".json")
	info, err := os.Lstat(file)
	if err != nil || !info.Mode().IsRegular() || time.Since(info.ModTime()) > s.keep() {
		return nil, ErrNotKept
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("read kept result: %w", err)
	}
	return data, nil
}

// Close removes the results this process kept.
func (s *Store) Close() error {
	s.mu.Lock()
	files := s.files
	s.files = nil
	s.mu.Unlock()
	for _, f := range files {
		os.Remove(f)
	}
	return nil
}

func (s *Store) keep() time.Duration {
	if s.Keep > 0 {
		return s.Keep
	}
	return DefaultKeep
}

// sweep removes the kept results older than the store's time, whichever
// process kept them.
func (s *Store) sweep() {
	entries, err := os.ReadDir(s.Dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		if info, err := e.Info(); err == nil && info.Mode().IsRegular() && time.Since(info.ModTime()) > s.keep() {
			os.Remove(filepath.Join(s.Dir, e.Name()))
		}
	}
}
