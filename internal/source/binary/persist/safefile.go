package persist

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// This file reads the cache's files, schema answers and resolutions, as
// hostile input. A file is opened with O_NOFOLLOW|O_NONBLOCK and fstat'ed
// as a regular file of bounded size. The files are written to a temporary
// file and renamed by resolver's writeAtomic, which knows the cache
// directory's rules.

// ErrFile reports a cache file that cannot be used.
var ErrFile = errors.New("invalid schema cache file")

// ReadFile reads path when it is a regular file of at most limit bytes,
// opened without following a symlink or waiting on a FIFO.
func ReadFile(path string, limit int64) ([]byte, error) {
	f, size, err := OpenFile(path, limit)
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
		return nil, fmt.Errorf("%w: more than %d bytes", ErrFile, limit)
	}
	return data, nil
}

// OpenFile opens path when it is a regular file of at most limit bytes,
// without following a symlink or waiting on a FIFO, and returns its size.
func OpenFile(path string, limit int64) (*os.File, int64, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|openNoFollow, 0)
	if err != nil {
		return nil, 0, err
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = fmt.Errorf("%w: not a regular file (%s)", ErrFile, fi.Mode().Type())
	} else if err == nil && fi.Size() > limit {
		err = fmt.Errorf("%w: %d bytes, more than %d", ErrFile, fi.Size(), limit)
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
