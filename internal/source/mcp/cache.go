package mcp

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"

	"github.com/toolhost/toolhost/internal/source/internal/cachefile"
)

// cacheVersion changes when the listing file's shape does. Other
// versions are ignored (and rewritten). 2: tools keep their _meta.
const cacheVersion = 2

// maxCacheFile bounds a cache file that is read.
const maxCacheFile = 16 << 20

// diskCache keeps one listing per server in dir, one JSON file each, by
// the rules of package internal/source/internal/cachefile: written whole
// and renamed, read as hostile input. A nil *diskCache keeps nothing.
type diskCache struct {
	dir string
}

type cacheFile struct {
	Version int      `json:"version"`
	Key     string   `json:"key"`
	Listing *Listing `json:"listing"`
}

// origin is where a listing in memory stands on disk: its cache file's
// identity when it was read or written, and what the cache key read of
// the file system then. A host keeps it with what it made of the listing
// (see [Source.Validity]).
type origin struct {
	file FileStamp
	key  keyFiles
}

// load returns the cached listing of spec, or nil when there is none, it
// is unreadable, or its key is not spec's key today. It also returns its origin.
func (d *diskCache) load(spec *Spec) (*Listing, *origin) {
	if d == nil {
		return nil, nil
	}
	key, kf, ok := specKeyFiles(spec)
	if !ok {
		return nil, nil
	}
	path := d.path(spec)
	raw, fi, err := cachefile.Read(path, maxCacheFile)
	if err != nil {
		return nil, nil // missing, a symlink (to anything), a directory, or too big to be ours
	}
	// The identity is the fstat before the read: a file replaced meanwhile
	// has another, so what is kept of this listing is not trusted later.
	o := &origin{file: FileStamp{Path: path, Size: fi.Size(), MTime: fi.ModTime().UnixNano()}, key: kf}
	var f cacheFile
	if json.Unmarshal(raw, &f) != nil || f.Version != cacheVersion || f.Key != key || f.Listing == nil {
		return nil, nil
	}
	return f.Listing, o
}

// store writes l as spec's listing, and returns the origin of l: nil when
// it was not stored (a spec without a trustworthy key, an error).
func (d *diskCache) store(spec *Spec, l *Listing) (*origin, error) {
	if d == nil {
		return nil, nil
	}
	key, kf, ok := specKeyFiles(spec)
	if !ok {
		return nil, nil
	}
	raw, err := json.Marshal(cacheFile{Version: cacheVersion, Key: key, Listing: l})
	if err != nil {
		return nil, err
	}
	path := d.path(spec)
	fi, err := cachefile.WriteSync(d.dir, path, raw)
	if err != nil {
		return nil, err
	}
	return &origin{file: FileStamp{Path: path, Size: fi.Size(), MTime: fi.ModTime().UnixNano()}, key: kf}, nil
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
// can see. That is the spec, with its secrets only hashed and the bearer
// token not at all. Its Confinement counts too, since a listing made
// unconfined says nothing of whether the server starts under the sandbox.
// For a stdio server it is also the identity (path, size, mtime) of its
// program and of every argument that names an existing file (a script).
// ok is false when the program cannot be found: nothing is trusted then.
func specKey(spec *Spec) (key string, ok bool) {
	key, _, ok = specKeyFiles(spec)
	return key, ok
}

// keyFiles is what specKey read of the file system: the command as looked
// up and the program it found, and each argument's path with its
// identity (absent: not a regular file then).
type keyFiles struct {
	Lookup, Program string
	Files           []FileStamp // the program, then each argument's path
}

// specKeyFiles is specKey, with the files it read.
func specKeyFiles(spec *Spec) (key string, kf keyFiles, ok bool) {
	k := struct {
		Name, Command, Dir, URL, Protocol, Confinement string
		Args, Env, Headers                             []string
		Program                                        fileID
		Files                                          []fileID
	}{Name: spec.Name, Command: spec.Command, Dir: spec.Dir, URL: spec.URL, Protocol: spec.ProtocolVersion, Confinement: spec.Confinement, Args: spec.Args, Env: spec.Env}
	for name, v := range spec.Headers {
		k.Headers = append(k.Headers, name+": "+v)
	}
	slices.Sort(k.Headers)
	if spec.Command != "" {
		kf.Lookup = lookupName(spec)
		path, err := exec.LookPath(kf.Lookup)
		if err != nil {
			return "", kf, false
		}
		kf.Program = path
		if k.Program, ok = statID(path); !ok {
			return "", kf, false
		}
		kf.Files = append(kf.Files, stampOf(k.Program, path, true))
		for _, a := range spec.Args {
			p := a
			if !filepath.IsAbs(p) && spec.Dir != "" {
				p = filepath.Join(spec.Dir, p)
			}
			id, ok := statID(p)
			if ok {
				k.Files = append(k.Files, id)
			}
			kf.Files = append(kf.Files, stampOf(id, p, ok))
		}
	}
	raw, _ := json.Marshal(k)
	sum := sha256.Sum256(raw)
	return hex.EncodeToString(sum[:]), kf, true
}
