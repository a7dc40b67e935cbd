package oauth

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"sync"

	"github.com/toolhost/toolhost/internal/atomicfile"
	"github.com/toolhost/toolhost/internal/config/secret"
)

// Record is what the client keeps about one server. It holds how the
// client is registered at the server's authorization server, and its
// token.
type Record struct {
	Resource string `json:"resource"` // the server's URL, the record's key
	Server   string `json:"server"`   // the server's name when the record was written
	Issuer   string `json:"issuer,omitempty"`

	TokenEndpoint string `json:"token_endpoint,omitempty"`
	ResourceParam string `json:"resource_param,omitempty"` // the resource parameter sent

	ClientID     string `json:"client_id,omitempty"`
	ClientSecret string `json:"client_secret,omitempty"`
	AuthMethod   string `json:"auth_method,omitempty"`
	Registered   bool   `json:"registered,omitempty"`   // the client_id came from dynamic registration
	RedirectURI  string `json:"redirect_uri,omitempty"` // the one registered, reused when its port is free
	Grant        string `json:"grant,omitempty"`

	Token *Token `json:"token,omitempty"`

	// InKeyring says that the tokens and the client secret are in the OS
	// keyring, not in the file. The file then holds them empty.
	InKeyring bool `json:"in_keyring,omitempty"`
}

// keyringSecrets is what a record keeps in the keyring: its secrets.
type keyringSecrets struct {
	ClientSecret string `json:"client_secret,omitempty"`
	AccessToken  string `json:"access_token,omitempty"`
	RefreshToken string `json:"refresh_token,omitempty"`
}

// Store keeps [Record]s in a directory. There is one owner-only file per
// server URL, mode 0600, in a 0700 directory. A store made by
// [DefaultStore] may run on a system whose keyring toolhost can write. It
// then keeps each record's secrets in the keyring instead, under service
// "toolhost", account "oauth-HASH". It is safe for concurrent use in one
// process. Two processes may write one record at once. They leave one
// whole record, the last written, as each write is a rename.
type Store struct {
	dir     string
	keyring bool // the secrets go to the keyring

	mu sync.Mutex
}

// NewStore returns the store in dir, created when first written. It keeps
// everything in its files.
func NewStore(dir string) *Store { return &Store{dir: dir} }

// DefaultStore is the store of [DefaultDir]. It keeps the secrets in the
// OS keyring where toolhost can write it (secret.KeyringWritable).
func DefaultStore() *Store {
	return &Store{dir: DefaultDir(), keyring: secret.KeyringWritable()}
}

// DefaultDir is where toolhost keeps its OAuth records:
// $XDG_STATE_HOME/toolhost/oauth, else ~/.local/state/toolhost/oauth.
// It is "" when neither is known: never a shared directory such as
// /tmp, where another user could make the directory first.
func DefaultDir() string {
	if d := os.Getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "toolhost", "oauth")
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return ""
	}
	return filepath.Join(home, ".local", "state", "toolhost", "oauth")
}

// errNoDir is Save's error when the store has no directory.
var errNoDir = errors.New("no place to keep OAuth tokens: set XDG_STATE_HOME or HOME")

// ErrPermissions: a record file others may read or write.
var ErrPermissions = errors.New("the file is readable or writable by others")

func (s *Store) path(resource string) string {
	return filepath.Join(s.dir, key(resource)+".json")
}

// key names a resource's record: a hash of its canonical URL.
func key(resource string) string {
	sum := sha256.Sum256([]byte(canonical(resource)))
	return hex.EncodeToString(sum[:12])
}

// item is the keyring account of a resource's secrets.
func item(resource string) string { return "oauth-" + key(resource) }

// Load returns the record of resource, nil when there is none.
func (s *Store) Load(resource string) (*Record, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, err := s.read(s.path(resource))
	if err != nil || r == nil {
		return nil, err
	}
	if !SameResource(r.Resource, resource) {
		return nil, nil
	}
	if r.InKeyring {
		// Secrets the keyring no longer gives are gone. The keyring may be locked
		// or the item removed. The next 401 signs in again.
		var ks keyringSecrets
		v, err := secret.ReadKeyring(item(r.Resource))
		if err != nil || json.Unmarshal([]byte(v.Reveal()), &ks) != nil {
			r.Token, r.ClientSecret = nil, ""
			return r, nil
		}
		r.ClientSecret = ks.ClientSecret
		if r.Token != nil {
			r.Token.AccessToken, r.Token.RefreshToken = ks.AccessToken, ks.RefreshToken
		}
	}
	return r, nil
}

func (s *Store) read(path string) (*Record, error) {
	if s.dir == "" {
		return nil, nil // no directory: no record
	}
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if st.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("%s: mode %v: %w; run chmod 600 %s, or toolhost auth logout and sign in again", path, st.Mode().Perm(), ErrPermissions, path)
	}
	return decodeRecord(b, path)
}

// decodeRecord decodes a record file.
func decodeRecord(b []byte, path string) (*Record, error) {
	var r Record
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("%s: %w: %v; remove it with toolhost auth logout", path, ErrBadDocument, err)
	}
	if r.Resource == "" {
		return nil, fmt.Errorf("%s: %w: no resource; remove it with toolhost auth logout", path, ErrBadDocument)
	}
	return &r, nil
}

// Save writes r, replacing the record of its resource. In a store that
// uses the keyring, the secrets go there. They go into the file only when
// the keyring refuses them.
func (s *Store) Save(r *Record) error {
	if s.dir == "" {
		return errNoDir
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	rec := *r
	rec.InKeyring = false
	if s.keyring {
		ks := keyringSecrets{ClientSecret: r.ClientSecret}
		if r.Token != nil {
			ks.AccessToken, ks.RefreshToken = r.Token.AccessToken, r.Token.RefreshToken
		}
		b, _ := json.Marshal(ks)
		if secret.StoreKeyring(item(r.Resource), string(b)) == nil {
			rec.ClientSecret, rec.InKeyring = "", true
			if r.Token != nil {
				t := *r.Token
				t.AccessToken, t.RefreshToken = "", ""
				rec.Token = &t
			}
		}
	}
	b, err := json.MarshalIndent(&rec, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return err
	}
	return atomicfile.Write(s.path(r.Resource), append(b, '\n'), 0o600)
}

// Delete removes the record of resource. It reports whether there was one.
func (s *Store) Delete(resource string) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r, _ := s.read(s.path(resource)); r != nil && r.InKeyring {
		if err := secret.DeleteKeyring(item(resource)); err != nil {
			return false, err
		}
	}
	if s.dir == "" {
		return false, nil
	}
	err := os.Remove(s.path(resource))
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	return err == nil, err
}

// List returns every record, by resource. A file that does not decode is
// reported in the error, after the records that do.
func (s *Store) List() ([]*Record, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	names, err := filepath.Glob(filepath.Join(s.dir, "*.json"))
	if err != nil {
		return nil, err
	}
	var recs []*Record
	var errs []error
	for _, n := range names {
		r, err := s.read(n)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if r != nil {
			recs = append(recs, r)
		}
	}
	sort.Slice(recs, func(i, j int) bool { return recs[i].Resource < recs[j].Resource })
	return recs, errors.Join(errs...)
}
