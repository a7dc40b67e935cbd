package binary

import (
	"github.com/toolhost/toolhost/internal/invoke"
	"github.com/toolhost/toolhost/internal/source/binary/schemacache"
	"github.com/toolhost/toolhost/internal/source/internal/cachefile"
)

// The schema caches' keys and files are package schemacache's. These
// names are the ones the local-binary source (still in this package) uses.

type (
	cacheKey  = schemacache.Key
	fileKey   = schemacache.FileKey
	diskCache = schemacache.Disk
	cacheFile = schemacache.File
)

const (
	cacheVersion = schemacache.Version
	maxCacheFile = schemacache.MaxFile
)

func statKeyOf(spec *invoke.Spec, root string) (cacheKey, bool) {
	return schemacache.StatKey(spec, root)
}

func statFile(p string) (fileKey, bool) { return schemacache.StatFile(p) }

func newKeyHash(version int) *schemacache.Hash { return schemacache.NewHash(version) }

func newDiskCache(cacheDir string) diskCache { return schemacache.NewDisk(cacheDir) }

func decodeCacheFile(data []byte) (*cacheFile, error) { return schemacache.DecodeFile(data) }

func writeAtomic(dir, path string, data []byte) error {
	_, err := cachefile.Write(dir, path, data)
	return err
}

// DefaultCacheDir returns the directory of the persistent schema cache:
// $XDG_CACHE_HOME/toolhost, or ~/.cache/toolhost when XDG_CACHE_HOME is
// unset or relative, "" when neither is known.
func DefaultCacheDir() string { return schemacache.DefaultDir() }

// ClearCache removes the schema answers and the persisted resolutions
// stored in dir by catalogs created with [Options.CacheDir] = dir. It
// removes nothing else, and a dir with no cache is not an error.
func ClearCache(dir string) error { return schemacache.Clear(dir) }
