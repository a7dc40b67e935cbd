package cachefile

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// ErrFile reports a cache file that cannot be used: not a regular file,
// too large, or not of the expected magic, version or CRC.
var ErrFile = errors.New("invalid cache file")

// ErrDir reports a cache directory that is not used: a symlink, not a
// directory, or another user's (or in a directory of another user).
var ErrDir = errors.New("cache directory is a symlink, not a directory, or another user's (or the cache directory is another user's)")

// Read reads path when it is a regular file of at most limit bytes. It
// opens it without following a symlink or waiting on a FIFO. It returns
// the file's stat, taken before the read.
func Read(path string, limit int64) ([]byte, fs.FileInfo, error) {
	f, fi, err := Open(path, limit)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	data := make([]byte, 0, fi.Size()+1)
	data, err = readAll(io.LimitReader(f, limit+1), data) // the file may grow after the fstat
	if err != nil {
		return nil, nil, err
	}
	if int64(len(data)) > limit {
		return nil, nil, fmt.Errorf("%w: more than %d bytes", ErrFile, limit)
	}
	return data, fi, nil
}

// Open opens path when it is a regular file of at most limit bytes,
// without following a symlink or waiting on a FIFO. It returns the file's
// stat.
func Open(path string, limit int64) (*os.File, fs.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|openNoFollow, 0)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = fmt.Errorf("%w: not a regular file (%s)", ErrFile, fi.Mode().Type())
	} else if err == nil && fi.Size() > limit {
		err = fmt.Errorf("%w: %d bytes, more than %d", ErrFile, fi.Size(), limit)
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
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

// Usable reports whether dir may be read and written. It must be a
// directory, not a symlink, owned by the current user. Its parent must be
// (or link to) a directory owned by the current user. Usable makes either
// 0700 when it is open to others.
func Usable(dir string) bool {
	top, err := os.Stat(filepath.Dir(dir)) // a symlink to a directory is fine
	if err != nil || !top.IsDir() || !ownedByUs(top) {
		return false
	}
	fi, err := os.Lstat(dir)
	if err != nil || !fi.IsDir() || !ownedByUs(fi) {
		return false
	}
	for d, fi := range map[string]fs.FileInfo{filepath.Dir(dir): top, dir: fi} {
		if fi.Mode().Perm()&0o077 != 0 {
			_ = os.Chmod(d, 0o700)
		}
	}
	return true
}

// Create makes dir and its parent 0700 when missing. It returns [ErrDir]
// when dir is not [Usable]. Nothing is created under another user's
// parent.
func Create(dir string) error {
	top := filepath.Dir(dir)
	if err := os.MkdirAll(top, 0o700); err != nil {
		return err
	}
	if fi, err := os.Stat(top); err != nil || !fi.IsDir() || !ownedByUs(fi) {
		return ErrDir
	}
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	if !Usable(dir) {
		return ErrDir
	}
	return nil
}

// Write writes data to path, a file of dir, atomically. It writes a
// temporary file in dir (made by [Create]), mode 0600, and renames it
// over path. It returns the stat of the file written.
func Write(dir, path string, data []byte) (fs.FileInfo, error) {
	return write(dir, path, data, false)
}

// WriteSync is [Write] with the data flushed to the disk before the
// rename.
func WriteSync(dir, path string, data []byte) (fs.FileInfo, error) {
	return write(dir, path, data, true)
}

func write(dir, path string, data []byte, sync bool) (fs.FileInfo, error) {
	if err := Create(dir); err != nil {
		return nil, err
	}
	tmp, err := os.CreateTemp(dir, ".tmp-*") // O_CREAT|O_EXCL, 0600: never opens an existing file or a symlink
	if err != nil {
		return nil, err
	}
	_, err = tmp.Write(data)
	if err == nil && sync {
		err = tmp.Sync()
	}
	var fi fs.FileInfo
	if err == nil {
		fi, err = tmp.Stat() // the rename keeps size and mtime
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = replace(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return nil, err
	}
	return fi, nil
}

// replace renames tmp to path. A directory in path's place, which rename
// cannot replace, is removed first: the directory is the cache's own.
func replace(tmp, path string) error {
	err := os.Rename(tmp, path)
	if err == nil {
		return nil
	}
	if fi, lerr := os.Lstat(path); lerr != nil || !fi.IsDir() {
		return err
	}
	if err := os.RemoveAll(path); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// Seal frames payload for [Unseal]: magic, then the CRC-32 (IEEE) of
// the rest, then version as a varint, then payload.
func Seal(magic string, version int, payload []byte) []byte {
	b := make([]byte, 0, len(magic)+4+binary.MaxVarintLen64+len(payload))
	b = append(b, magic...)
	b = append(b, 0, 0, 0, 0)
	b = binary.AppendUvarint(b, uint64(version))
	b = append(b, payload...)
	binary.LittleEndian.PutUint32(b[len(magic):], crc32.ChecksumIEEE(b[len(magic)+4:]))
	return b
}

// Unseal returns the payload of data, which [Seal] framed with magic and
// version. It returns [ErrFile] when the magic, the CRC or the version
// differ.
func Unseal(data []byte, magic string, version int) ([]byte, error) {
	if len(data) < len(magic)+4 || string(data[:len(magic)]) != magic {
		return nil, fmt.Errorf("%w: not a %q file", ErrFile, magic)
	}
	rest := data[len(magic)+4:]
	if crc32.ChecksumIEEE(rest) != binary.LittleEndian.Uint32(data[len(magic):]) {
		return nil, fmt.Errorf("%w: CRC mismatch", ErrFile)
	}
	want := binary.AppendUvarint(nil, uint64(version))
	if !bytes.HasPrefix(rest, want) {
		v, _ := binary.Uvarint(rest)
		return nil, fmt.Errorf("%w: version %d, want %d", ErrFile, v, version)
	}
	return rest[len(want):], nil
}
