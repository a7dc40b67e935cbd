package schemacache

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

	"github.com/toolhost/toolhost/internal/source/internal/cachefile"
	"github.com/toolhost/toolhost/tool"
)

// The persistent schema cache is a directory of JSON files. There is one
// per invocation: command line, working directory, env, workspace root.
//
//	CacheDir/schemas/<sha256 of the invocation>.json
//	{"version":1,"key":"<StatKey key>","command":["bin/fs"],"response":{"tools":[…]}}
//
// An answer is used only when its key equals the binary's current
// StatKey key. That key covers path, size, mtime, inode and ctime of the
// executable and of file arguments, plus the command line. So an answer
// is never stale. A rebuilt binary overwrites its file. Commands without
// a trustworthy key (go run, shell) are never stored. Files are written
// to a temporary file and renamed. So a reader never sees half a file. A
// file that does not decode is ignored and rewritten.
//
// The directory is treated as hostile input, as any file is (docs/security.md):
//   - An entry is read only when it is a regular file of at most MaxFile
//     bytes. It is opened with O_NOFOLLOW|O_NONBLOCK. A symlink fails to
//     open, and a FIFO opens without waiting for a writer. It is then
//     fstat'ed, and read through a limit. Some entries are ignored like a
//     corrupt file: a symlink (to /dev/zero, say), a FIFO, a socket, a
//     directory or an oversized file. They are replaced by a regular file
//     when the answer is stored. A directory in its place is removed
//     first, as the schemas directory is the cache's own.
//   - The temporary file is created by os.CreateTemp in the schemas
//     directory itself. That is O_CREAT|O_EXCL, mode 0600, a random name.
//     rename replaces the entry's name without following a symlink there.
//   - Directories are created 0700. CacheDir may be a symlink, to move the
//     cache to another disk. But what it names must be a directory owned
//     by the current user. CacheDir/schemas must be a real directory owned
//     by the current user. Either is made 0700 when it is open to others,
//     as a CacheDir that existed before toolhost may be. CacheDir may be
//     another user's. Or schemas may be a symlink, not a directory, or
//     another user's. The catalog then keeps no persistent cache,
//     silently, as it only saves time. Remove it, or run toolhost cache
//     clear, to get the cache back.

// Version is the version of the cache files. A file of another version
// is not used (and is rewritten).
const Version = 1

// File is one file of the persistent cache.
type File struct {
	Version  int                  `json:"version"`
	Key      string               `json:"key"`
	Command  []string             `json:"command"`
	Response *tool.SchemaResponse `json:"response"`
}

// errCacheFile reports a cache file that cannot be used.
var errCacheFile = cachefile.ErrFile

// DecodeFile decodes and checks one cache file. It never panics on
// any input.
func DecodeFile(data []byte) (*File, error) {
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
	if raw.Version != Version {
		return nil, fmt.Errorf("%w: version %d, want %d", errCacheFile, raw.Version, Version)
	}
	if raw.Key == "" {
		return nil, fmt.Errorf("%w: no key", errCacheFile)
	}
	resp, err := tool.DecodeSchemaResponse(raw.Response)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errCacheFile, err)
	}
	return &File{Version: raw.Version, Key: raw.Key, Command: raw.Command, Response: resp}, nil
}

// Disk is the persistent cache in one directory. The zero value (no
// directory) stores nothing.
type Disk struct {
	dir string // CacheDir/schemas; "" for none
}

// NewDisk returns the schema cache of cacheDir (its schemas directory).
// The zero Disk when cacheDir is "".
func NewDisk(cacheDir string) Disk {
	if cacheDir == "" {
		return Disk{}
	}
	return Disk{dir: filepath.Join(cacheDir, "schemas")}
}

// Path returns the file of one invocation in workspace root.
func (d Disk) Path(invocation, root string) string {
	sum := sha256.Sum256([]byte(root + "\x00" + invocation))
	return filepath.Join(d.dir, hex.EncodeToString(sum[:16])+".json")
}

// MaxFile bounds the size of a cache file. A schema answer is at most the
// stdout cap, 16 MiB by default. Its file adds a key and a command line.
// A larger file is not read. It is rewritten.
const MaxFile = 16<<20 + 1<<20

// Usable reports whether the schemas directory may be read and written.
// See the rules above, and [cachefile.Usable].
func (d Disk) Usable() bool { return cachefile.Usable(d.dir) }

// Load returns the stored answer for the invocation when its key is key.
func (d Disk) Load(invocation, root string, key Key) (*tool.SchemaResponse, bool) {
	if d.dir == "" || key == "" || !d.Usable() {
		return nil, false
	}
	data, _, err := cachefile.Read(d.Path(invocation, root), MaxFile)
	if err != nil {
		return nil, false // missing, or not a regular file of bounded size: asked again and rewritten
	}
	f, err := DecodeFile(data)
	if err != nil || f.Key != string(key) {
		return nil, false // corrupt or stale: asked again and rewritten
	}
	return f.Response, true
}

// Store writes an answer atomically. Failing to store is not an error:
// the cache only saves time.
func (d Disk) Store(invocation, root string, key Key, command []string, resp *tool.SchemaResponse) error {
	if d.dir == "" || key == "" {
		return nil
	}
	data, err := json.Marshal(File{Version: Version, Key: string(key), Command: command, Response: resp})
	if err != nil {
		return err
	}
	_, err = cachefile.Write(d.dir, d.Path(invocation, root), append(data, '\n'))
	return err
}

// DefaultDir returns the directory of the persistent schema cache. That is
// $XDG_CACHE_HOME/toolhost. It is ~/.cache/toolhost when XDG_CACHE_HOME is
// unset or relative. It is "" when neither is known.
func DefaultDir() string {
	if x := os.Getenv("XDG_CACHE_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "toolhost")
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return ""
	}
	return filepath.Join(home, ".cache", "toolhost")
}

// Clear removes the schema answers and the persisted resolutions stored
// in dir by catalogs created with Options.CacheDir = dir. It also removes
// the listings of MCP servers and remote catalogs kept beside them. Those
// are mcp, remotes, and mcp-client for `toolhost --mcp`. It removes
// nothing else. A dir with no cache is not an error.
func Clear(dir string) error {
	if dir == "" {
		return errors.New("clear cache: no cache directory (DefaultCacheDir finds none when neither XDG_CACHE_HOME nor HOME is set; set one)")
	}
	for _, sub := range []string{"schemas", "resolutions", "mcp", "remotes", "mcp-client"} {
		err := os.RemoveAll(filepath.Join(dir, sub))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("clear cache: %w", err)
		}
	}
	return nil
}
