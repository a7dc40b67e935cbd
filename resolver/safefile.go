package resolver

import (
	"fmt"
	"io"
	"os"
)

// This file reads and writes the cache's files as hostile input: opened
// with O_NOFOLLOW|O_NONBLOCK, fstat'ed as a regular file of bounded size,
// written to a temporary file and renamed.

// readFile reads path when it is a regular file of at most limit bytes,
// opened without following a symlink or waiting on a FIFO.
func readFile(path string, limit int64) ([]byte, error) {
	f, size, err := openFile(path, limit)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data := make([]byte, 0, size+1)
	data, err = readAll(io.LimitReader(f, limit+1), data) // the file may grow after the fstat
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%w: more than %d bytes", errCacheFile, limit)
	}
	return data, nil
}

// openFile opens path when it is a regular file of at most limit bytes,
// without following a symlink or waiting on a FIFO, and returns its size.
func openFile(path string, limit int64) (*os.File, int64, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|openNoFollow, 0)
	if err != nil {
		return nil, 0, err
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = fmt.Errorf("%w: not a regular file (%s)", errCacheFile, fi.Mode().Type())
	} else if err == nil && fi.Size() > limit {
		err = fmt.Errorf("%w: %d bytes, more than %d", errCacheFile, fi.Size(), limit)
	}
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	return f, fi.Size(), nil
}

// readAll reads r to its end into buf.
func readAll(r io.Reader, buf []byte) ([]byte, error) {
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}

// writeAtomic writes data to path through a temporary file in dir
// (created 0700 when missing, and used only when it is a real directory
// owned by the current user), renamed over path.
func writeAtomic(dir, path string, data []byte) error {
	if err := (diskCache{dir: dir}).create(); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".tmp-*.json") // O_CREAT|O_EXCL, 0600
	if err != nil {
		return err
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = replace(tmp.Name(), path)
	}
	if werr != nil {
		os.Remove(tmp.Name())
	}
	return werr
}
