package resolver

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/toolhost/toolhost/tool"
)

// The persistent schema cache is a directory of JSON files, one per
// invocation (command line, working directory, env, workspace root):
//
//	CacheDir/schemas/<sha256 of the invocation>.json
//	{"version":1,"key":"<statKeyOf key>","command":["bin/fs"],"response":{"tools":[…]}}
//
// An answer is used only when its key equals the binary's current
// statKeyOf key (path, size, mtime, inode and ctime of the executable and
// of file arguments, plus the command line), so it is never stale; a rebuilt binary
// overwrites its file. Commands without a trustworthy key (go run, shell)
// are never stored. Files are written to a temporary file and renamed, so a
// reader never sees half a file; a file that does not decode is ignored and
// rewritten.

const cacheVersion = 1

// cacheFile is one file of the persistent cache.
type cacheFile struct {
	Version  int                  `json:"version"`
	Key      string               `json:"key"`
	Command  []string             `json:"command"`
	Response *tool.SchemaResponse `json:"response"`
}

// errCacheFile reports a cache file that cannot be used.
var errCacheFile = errors.New("invalid schema cache file")

// decodeCacheFile decodes and checks one cache file. It never panics on
// any input.
func decodeCacheFile(data []byte) (*cacheFile, error) {
	var raw struct {
		Version  int             `json:"version"`
		Key      string          `json:"key"`
		Command  []string        `json:"command"`
		Response json.RawMessage `json:"response"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("%w: %v", errCacheFile, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("%w: data after the JSON object", errCacheFile)
	}
	if raw.Version != cacheVersion {
		return nil, fmt.Errorf("%w: version %d, want %d", errCacheFile, raw.Version, cacheVersion)
	}
	if raw.Key == "" {
		return nil, fmt.Errorf("%w: no key", errCacheFile)
	}
	resp, err := tool.DecodeSchemaResponse(raw.Response)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errCacheFile, err)
	}
	return &cacheFile{Version: raw.Version, Key: raw.Key, Command: raw.Command, Response: resp}, nil
}

// diskCache is the persistent cache in one directory. The zero value (no
// directory) stores nothing.
type diskCache struct {
	dir string // CacheDir/schemas; "" for none
}

func newDiskCache(cacheDir string) diskCache {
	if cacheDir == "" {
		return diskCache{}
	}
	return diskCache{dir: filepath.Join(cacheDir, "schemas")}
}

// path returns the file of one invocation in workspace root.
func (d diskCache) path(invocation, root string) string {
	sum := sha256.Sum256([]byte(root + "\x00" + invocation))
	return filepath.Join(d.dir, hex.EncodeToString(sum[:16])+".json")
}

// load returns the stored answer for the invocation when its key is key.
func (d diskCache) load(invocation, root string, key cacheKey) (*tool.SchemaResponse, bool) {
	if d.dir == "" || key == "" {
		return nil, false
	}
	data, err := os.ReadFile(d.path(invocation, root))
	if err != nil {
		return nil, false
	}
	f, err := decodeCacheFile(data)
	if err != nil || f.Key != string(key) {
		return nil, false // corrupt or stale: asked again and rewritten
	}
	return f.Response, true
}

// store writes an answer atomically. Failing to store is not an error:
// the cache only saves time.
func (d diskCache) store(invocation, root string, key cacheKey, command []string, resp *tool.SchemaResponse) error {
	if d.dir == "" || key == "" {
		return nil
	}
	data, err := json.Marshal(cacheFile{Version: cacheVersion, Key: string(key), Command: command, Response: resp})
	if err != nil {
		return err
	}
	if err := os.MkdirAll(d.dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(d.dir, ".tmp-*.json")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(append(data, '\n'))
	cerr := tmp.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), d.path(invocation, root))
	}
	if werr != nil {
		os.Remove(tmp.Name())
	}
	return werr
}

// DefaultCacheDir returns the directory of the persistent schema cache:
// $XDG_CACHE_HOME/toolhost, or ~/.cache/toolhost when XDG_CACHE_HOME is
// unset or relative; "" when neither is known.
func DefaultCacheDir() string {
	if x := os.Getenv("XDG_CACHE_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "toolhost")
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return ""
	}
	return filepath.Join(home, ".cache", "toolhost")
}

// ClearCache removes the schema answers stored in dir by catalogs created
// with Options.CacheDir = dir. It removes nothing else, and a dir with no
// cache is not an error.
func ClearCache(dir string) error {
	if dir == "" {
		return errors.New("resolver: clear cache: no cache directory (DefaultCacheDir finds none when neither XDG_CACHE_HOME nor HOME is set; set one)")
	}
	err := os.RemoveAll(filepath.Join(dir, "schemas"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("resolver: clear cache: %w", err)
	}
	return nil
}
