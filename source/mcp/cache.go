package mcp

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
)

// cacheVersion changes when the file's shape does; other versions are
// ignored (and rewritten).
const cacheVersion = 1

// maxCacheFile bounds a cache file that is read.
const maxCacheFile = 16 << 20

// diskCache keeps one listing per server in dir, one JSON file each,
// written whole to a temporary file and renamed over the old one, so a
// reader never sees half a file. A nil *diskCache keeps nothing.
type diskCache struct {
	dir string
}

type cacheFile struct {
	Version int      `json:"version"`
	Key     string   `json:"key"`
	Listing *Listing `json:"listing"`
}

// load returns the cached listing of spec, or nil when there is none, it
// is unreadable, or its key is not spec's key today.
func (d *diskCache) load(spec *Spec) *Listing {
	if d == nil {
		return nil
	}
	key, ok := specKey(spec)
	if !ok {
		return nil
	}
	path := d.path(spec)
	if fi, err := os.Lstat(path); err != nil || !fi.Mode().IsRegular() || fi.Size() > maxCacheFile {
		return nil // missing, a symlink (to anything), a directory, or too big to be ours
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var f cacheFile
	if json.Unmarshal(raw, &f) != nil || f.Version != cacheVersion || f.Key != key || f.Listing == nil {
		return nil
	}
	return f.Listing
}

// store writes l as spec's listing. Specs without a trustworthy key are
// not stored.
func (d *diskCache) store(spec *Spec, l *Listing) error {
	if d == nil {
		return nil
	}
	key, ok := specKey(spec)
	if !ok {
		return nil
	}
	raw, err := json.Marshal(cacheFile{Version: cacheVersion, Key: key, Listing: l})
	if err != nil {
		return err
	}
	if err := os.MkdirAll(d.dir, 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(d.dir, ".mcp-*.tmp")
	if err != nil {
		return err
	}
	_, err = tmp.Write(raw)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), d.path(spec))
	}
	if err != nil {
		return errors.Join(err, os.Remove(tmp.Name()))
	}
	return nil
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9_.-]+`)

// path is spec's cache file: its name, made safe, and a hash of the name.
func (d *diskCache) path(spec *Spec) string {
	sum := sha256.Sum256([]byte(spec.Name))
	return filepath.Join(d.dir, unsafeName.ReplaceAllString(spec.Name, "_")+"-"+hex.EncodeToString(sum[:6])+".json")
}

// fileID is what identifies a file's content without reading it.
type fileID struct {
	Path  string `json:"path"`
	Size  int64  `json:"size"`
	MTime int64  `json:"mtime"`
}

func statID(path string) (fileID, bool) {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return fileID{}, false
	}
	return fileID{Path: path, Size: fi.Size(), MTime: fi.ModTime().UnixNano()}, true
}

// specKey is a hash of what decides a server's tools as far as toolhost
// can see: the spec (its secrets only hashed, the bearer token not at
// all), and for a stdio server the identity (path, size, mtime) of its
// program and of every argument that names an existing file (a script).
// ok is false when the program cannot be found: nothing is trusted then.
func specKey(spec *Spec) (key string, ok bool) {
	k := struct {
		Name, Command, Dir, URL, Protocol string
		Args, Env, Headers                []string
		Program                           fileID
		Files                             []fileID
	}{Name: spec.Name, Command: spec.Command, Dir: spec.Dir, URL: spec.URL, Protocol: spec.ProtocolVersion, Args: spec.Args, Env: spec.Env}
	for name, v := range spec.Headers {
		k.Headers = append(k.Headers, name+": "+v)
	}
	slices.Sort(k.Headers)
	if spec.Command != "" {
		path, err := commandPath(spec)
		if err != nil {
			return "", false
		}
		if k.Program, ok = statID(path); !ok {
			return "", false
		}
		for _, a := range spec.Args {
			p := a
			if !filepath.IsAbs(p) && spec.Dir != "" {
				p = filepath.Join(spec.Dir, p)
			}
			if id, ok := statID(p); ok {
				k.Files = append(k.Files, id)
			}
		}
	}
	raw, _ := json.Marshal(k)
	sum := sha256.Sum256(raw)
	return hex.EncodeToString(sum[:]), true
}
