// Package cachefile reads and writes the files the sources keep across
// runs in the cache directory. These are schema answers, server listings,
// remembered failed starts and each source's warm-start snapshot.
//
//	if err := cachefile.Write(dir, path, cachefile.Seal(magic, version, data)); err != nil {
//		return err // the file only saves time: callers ignore this
//	}
//	raw, _, err := cachefile.Read(path, limit)
//	data, err := cachefile.Unseal(raw, magic, version) // ErrFile: start cold
//
// # Rules
//
// A cache file is hostile input. [Read] and [Open] open it with
// O_NOFOLLOW|O_NONBLOCK, so a symlink fails and a FIFO does not block.
// They fstat it and accept only a regular file of bounded size. [Write]
// writes a temporary file, mode 0600, and renames it over the old one. A
// reader never sees half a file. A directory is used only when it is a
// real directory owned by the current user, in a parent owned by the
// current user too ([Usable]). [Create] makes it 0700. [Seal] frames a
// payload with a magic line, a version and a CRC. [Unseal] returns
// [ErrFile] for anything else. The caller then starts cold and rewrites
// the file.
package cachefile
