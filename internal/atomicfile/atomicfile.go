// Package atomicfile replaces a file whole or not at all.
//
// toolhost keeps files a reader must never see half written: the user's
// config.toml after `toolhost add`, the trust records, the pinned
// definitions, the sign-in records and the remote catalogs' cache.
// [Write] is the one way they are written.
package atomicfile

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Write replaces path with data. It writes a new file in path's
// directory, created exclusively with mode 0600, so never through a link
// or into another's file. It flushes the file to the disk, gives it perm
// and renames it over path. A link at path is replaced, not followed. On
// an error path is as it was and the new file is removed. The directory
// must exist.
func Write(path string, data []byte, perm fs.FileMode) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp") // O_CREAT|O_EXCL, 0600
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			os.Remove(tmp.Name())
			err = fmt.Errorf("write %s: %w", path, err)
		}
	}()
	if _, err = tmp.Write(data); err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil && perm != 0o600 {
		err = os.Chmod(tmp.Name(), perm)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	return err
}
