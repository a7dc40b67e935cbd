package audit

import (
	"bytes"
	"errors"
	"io"
	"os"
)

// recentChunk is how many bytes [Recent] reads at a time, from a file's end.
const recentChunk = 64 << 10

// Recent returns the last n lines that f selects of the audit file at path
// and its rotated files, newest first. [Files] finds the rotated files:
// path.1, path.2…. Recent reads each file from its end, newest file first,
// and stops once it has n. It reads the files, never the [Log]. So it
// does not hold up writers. The log may be appended to meanwhile. A last
// line without its newline is read only when it is a whole audit line. One
// being written, or torn by a crash, is left out. So are lines that are
// not audit lines. Memory is bounded by n records, a 64 KiB chunk and one
// line of at most 1 MiB. The time is bounded by the files' sizes, which
// rotation bounds. A file that does not exist, with no call logged yet,
// gives no lines, not an error. A rotation while Recent reads may make it
// miss lines, never repeat one. A file already read is known under its
// next name.
func Recent(path string, f *Filter, n int) ([]Record, error) {
	if n <= 0 {
		return nil, nil
	}
	var (
		out  []Record
		seen []os.FileInfo // the files read: a rotation meanwhile renames one to the next name
	)
	for i := 0; len(out) < n; i++ {
		name := path
		if i > 0 {
			name = rotated(path, i)
		}
		var err error
		out, seen, err = recentIn(name, f, n, out, seen)
		if errors.Is(err, os.ErrNotExist) && i > 0 {
			break
		}
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return out, err
		}
	}
	return out, nil
}

// recentIn appends to out, newest first, the lines f selects of the file
// at path until out holds n. It skips that file when it is one of seen.
func recentIn(path string, f *Filter, n int, out []Record, seen []os.FileInfo) ([]Record, []os.FileInfo, error) {
	fh, err := os.Open(path)
	if err != nil {
		return out, seen, err
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return out, seen, err
	}
	for _, s := range seen {
		if os.SameFile(s, st) {
			return out, seen, nil
		}
	}
	seen = append(seen, st)
	var needle []byte // the line of a call of f.Tool holds it
	if f != nil && f.Tool != "" {
		needle = appendString([]byte(`"tool":`), f.Tool)
	}
	var rec Record
	consider := func(line []byte) {
		if len(line) == 0 || len(line) > maxLine || (needle != nil && !bytes.Contains(line, needle)) {
			return
		}
		if rec.UnmarshalJSON(line) == nil && f.match(&rec) {
			out = append(out, rec)
		}
	}
	var (
		pos     = st.Size()
		buf     = make([]byte, 0, 2*recentChunk)
		tail    []byte // the start of the line that the bytes after pos end, at buf's start
		discard bool   // that line is too long to be an audit line: skip it
	)
	for pos > 0 && len(out) < n {
		start := max(0, pos-recentChunk)
		k := int(pos - start)
		// buf holds the chunk, then the tail after it. The tail is moved up, and
		// copy handles the overlap.
		if need := k + len(tail); cap(buf) < need {
			buf = make([]byte, 0, need+recentChunk)
		}
		data := buf[:k+len(tail)]
		copy(data[k:], tail)
		if _, err := fh.ReadAt(data[:k], start); err != nil && !errors.Is(err, io.EOF) {
			return out, seen, err
		}
		pos = start
		for len(out) < n {
			i := bytes.LastIndexByte(data, '\n')
			if i < 0 {
				break
			}
			if !discard {
				consider(data[i+1:])
			}
			discard = false
			data = data[:i]
		}
		switch {
		case len(out) >= n:
		case pos == 0: // data is the file's first line
			if !discard {
				consider(data)
			}
		case discard || len(data) > maxLine:
			discard, tail = true, nil
		default:
			tail = data
		}
	}
	return out, seen, nil
}
