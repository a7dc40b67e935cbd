package mcp

import (
	"os"
	"os/exec"
	"time"
)

// Validity is what the listing a [Source] serves depends on. It is for a
// host that keeps what it made of the listing across runs, as the
// catalog's persisted resolution does. Such a host must know, without this
// Source, whether the listing would still be served from the cache as it
// is. That needs the same cache file (path, size, mtime), since a listing
// written since is another file. It needs the same program found for the
// command, and the same arguments that name files. And the freshness rule
// must not have run out (see the package doc, "Freshness"). The host's own
// configuration must be unchanged too, as the spec is made from it. That
// is the host's to check.
type Validity struct {
	Cache   FileStamp   `json:"cache"`
	Lookup  string      `json:"lookup,omitempty"`  // the command as looked up (stdio)
	Program string      `json:"program,omitempty"` // the program it found
	Files   []FileStamp `json:"files,omitempty"`   // the program, then each argument's path
	Expires time.Time   `json:"expires"`           // when the listing is no longer trusted
}

// FileStamp identifies a file's content without reading it; Size is -1
// for a path that is not a regular file (an argument that names none).
type FileStamp struct {
	Path  string `json:"path"`
	Size  int64  `json:"size"`
	MTime int64  `json:"mtime,omitempty"`
}

// stampOf is the stamp of path from its statID.
func stampOf(id fileID, path string, ok bool) FileStamp {
	if !ok {
		return FileStamp{Path: path, Size: -1}
	}
	return FileStamp{Path: id.Path, Size: id.Size, MTime: id.MTime}
}

// Validity returns the validity of listing l, as [Source.Tools] returned
// it. It returns false when l is not the listing s holds now, or not one
// the cache would serve again. Such a listing was not written to the
// cache: no CacheDir, no trustworthy key, or a write that failed. Or it is
// never trusted without asking: MaxAge < 0, or an HTTP server's ttlMs 0
// on 2026-07-28. Or its freshness has run out.
func (s *Source) Validity(l *Listing) (Validity, bool) {
	s.mu.Lock()
	cur, o := s.listing, s.origin
	var until time.Time
	ok := l != nil && cur != nil && o != nil && cur.Hash == l.Hash && cur.Fetched.Equal(l.Fetched)
	if ok {
		until, ok = s.trustedUntil(l)
	}
	s.mu.Unlock()
	if !ok || !time.Now().Before(until) {
		return Validity{}, false
	}
	return Validity{Cache: o.file, Lookup: o.key.Lookup, Program: o.key.Program, Files: o.key.Files, Expires: until}, true
}

// Holds reports whether v still holds at now: before it expires, with
// the cache file, the program the command finds and every file as they
// were. It reads nothing but the files' stat (and the program's lookup).
func (v Validity) Holds(now time.Time) bool {
	if !now.Before(v.Expires) || !v.Cache.holds() {
		return false
	}
	if v.Lookup != "" {
		if p, err := exec.LookPath(v.Lookup); err != nil || p != v.Program {
			return false
		}
	}
	for _, f := range v.Files {
		if !f.holds() {
			return false
		}
	}
	return true
}

// holds reports whether the file is as stamped.
func (f FileStamp) holds() bool {
	fi, err := os.Stat(f.Path)
	if f.Size < 0 {
		return err != nil || !fi.Mode().IsRegular()
	}
	return err == nil && fi.Mode().IsRegular() && fi.Size() == f.Size && fi.ModTime().UnixNano() == f.MTime
}
