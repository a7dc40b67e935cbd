package remote

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/internal/atomicfile"
)

// entry is a manifest as kept, in memory and on disk.
type entry struct {
	Manifest  *Manifest
	url       string // the manifest's URL
	raw       []byte // the body as the provider sent it
	ETag      string
	FetchedAt time.Time
	MaxAge    time.Duration
	noStore   bool // Cache-Control: no-store: kept in memory only
}

// cached is the cache file's form: the manifest's bytes as received,
// with what freshness needs. The file holds no header and no token.
type cached struct {
	URL       string          `json:"url"`
	ETag      string          `json:"etag,omitempty"`
	FetchedAt time.Time       `json:"fetched_at"`
	MaxAge    int64           `json:"max_age_seconds"`
	Manifest  json.RawMessage `json:"manifest"`
}

// cacheFile names the cache file of a remote: by a hash of its name and
// URL. So a remote pointed elsewhere starts afresh.
func cacheFile(dir string, r *config.Remote) string {
	sum := sha256.Sum256([]byte(r.Name + "\x00" + r.URL))
	return filepath.Join(dir, "remote-"+hex.EncodeToString(sum[:8])+".json")
}

// maxCacheFile bounds the cache file: the manifest and its envelope.
const maxCacheFile = MaxManifestBytes + 4<<10

// readCache reads a cache file as outside input (another process, or a
// person, may have written it): a regular file, not a symlink, bounded,
// for the same URL, holding a manifest Decode accepts.
func readCache(path, url string) (*entry, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() || fi.Size() > maxCacheFile {
		return nil, fmt.Errorf("%s: not a regular file of at most %d bytes", path, maxCacheFile)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxCacheFile+1))
	if err != nil {
		return nil, err
	}
	var c cached
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, err
	}
	if c.URL != url {
		return nil, errors.New("cache file of another URL")
	}
	m, err := Decode(c.Manifest)
	if err != nil {
		return nil, err
	}
	return &entry{Manifest: m, url: url, raw: c.Manifest, ETag: c.ETag, FetchedAt: c.FetchedAt, MaxAge: time.Duration(c.MaxAge) * time.Second}, nil
}

// writeCache writes e safely: to a temporary file in the same directory,
// synced, then renamed over the old one. So a reader sees the old file or
// the new one, never a part.
func writeCache(path string, e *entry) error {
	data, err := json.Marshal(cached{
		URL:       e.url,
		ETag:      e.ETag,
		FetchedAt: e.FetchedAt.UTC(),
		MaxAge:    int64(e.MaxAge / time.Second),
		Manifest:  e.raw,
	})
	if err != nil {
		return err
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	return atomicfile.Write(path, data, 0o600)
}
