package audit

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"time"
)

// Filter selects the lines a [Scanner] yields. The zero Filter selects all.
type Filter struct {
	Tool      string    // only calls of this tool; "" all
	Since     time.Time // only calls that started at or after this time; zero all
	Workspace string    // only calls served by the workspace at this root ([Record.Workspace]); "" all
}

func (f *Filter) match(r *Record) bool {
	return f == nil || ((f.Tool == "" || r.Tool == f.Tool) && (f.Since.IsZero() || !r.Time.Before(f.Since)) &&
		(f.Workspace == "" || r.Workspace == f.Workspace))
}

// maxLine bounds one line the reader accepts. A longer one is skipped as
// not an audit line. A writer never writes one, as the arguments are
// capped.
const maxLine = 1 << 20

// Scanner reads audit lines, yielding those its filter selects. A line
// that is not a valid audit line is skipped and counted. A torn last line
// is kept apart in [Scanner.Torn]. The file then ends without its newline,
// as after a crash mid-write.
//
//	s := audit.NewScanner(f, &audit.Filter{Tool: "grep"})
//	for s.Scan() {
//		fmt.Println(s.Record().Time, s.Record().Outcome)
//	}
//	if err := s.Err(); err != nil { … }
type Scanner struct {
	r      *bufio.Reader
	filter *Filter
	rec    Record
	line   []byte
	torn   []byte
	bad    int
	err    error
}

// NewScanner reads lines from r. A nil filter selects every line.
func NewScanner(r io.Reader, f *Filter) *Scanner {
	return &Scanner{r: bufio.NewReaderSize(r, 64<<10), filter: f}
}

// Scan advances to the next selected line. It returns false at the end of
// the input or on a read error ([Scanner.Err]).
func (s *Scanner) Scan() bool {
	for s.err == nil {
		line, complete, err := readLine(s.r)
		if err != nil && !errors.Is(err, io.EOF) {
			s.err = err
			return false
		}
		if len(line) == 0 && errors.Is(err, io.EOF) {
			return false
		}
		if !complete {
			// The input ends inside a line: torn if it does not parse.
			var r Record
			if len(line) > maxLine || r.UnmarshalJSON(line) != nil {
				s.torn = append(s.torn[:0], line...)
				return false
			}
		}
		if len(line) > maxLine || s.rec.UnmarshalJSON(line) != nil {
			if len(bytes.TrimSpace(line)) > 0 {
				s.bad++
			}
			continue
		}
		if s.filter.match(&s.rec) {
			s.line = line
			return true
		}
	}
	return false
}

// readLine reads one line without its newline. complete is false when the
// input ended before a newline. A line longer than maxLine is read to its
// end and returned cut at maxLine+1 bytes.
func readLine(r *bufio.Reader) (line []byte, complete bool, err error) {
	for {
		part, err := r.ReadSlice('\n')
		if len(line) <= maxLine {
			line = append(line, part...)
		}
		switch {
		case err == nil:
			return bytes.TrimSuffix(line, []byte("\n")), true, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		default:
			return line, false, err
		}
	}
}

// Record returns the last line read, decoded. It is overwritten by the
// next Scan.
func (s *Scanner) Record() *Record { return &s.rec }

// Line returns the raw bytes of the last line read, without its newline.
// It is valid until the next Scan.
func (s *Scanner) Line() []byte { return s.line }

// Torn returns the input's last line when it was torn: no newline, not an
// audit line. A crash mid-write leaves one. It returns nil otherwise.
func (s *Scanner) Torn() []byte { return s.torn }

// Skipped returns how many complete lines were skipped as not audit lines.
func (s *Scanner) Skipped() int { return s.bad }

// Err returns the first read error, not counting the end of the input.
func (s *Scanner) Err() error { return s.err }

// Files returns the audit file at path and its rotated files that exist.
// They come oldest first: path.N … path.1, path.
func Files(path string) []string {
	var out []string
	for i := 1; ; i++ {
		if _, err := os.Stat(rotated(path, i)); err != nil {
			break
		}
		out = append([]string{rotated(path, i)}, out...)
	}
	if _, err := os.Stat(path); err == nil {
		out = append(out, path)
	}
	return out
}

// followInterval is how often [Follow] looks for new lines.
const followInterval = 250 * time.Millisecond

// Follow calls fn with every selected line of the file at path, from its
// start. It then calls fn with each line appended to it. It stops when
// ctx is done, and returns nil. It stops when fn returns an error, and
// returns that error. A line is passed once complete. So a line being
// written is waited for, never reported torn. When the file is rotated or
// truncated, Follow goes on from the start of the new file. The file need
// not exist yet. Lines that are not audit lines are skipped.
func Follow(ctx context.Context, path string, f *Filter, fn func(line []byte, r *Record) error) error {
	return follow(ctx, path, f, followInterval, fn)
}

// follow is [Follow], looking every so often.
func follow(ctx context.Context, path string, f *Filter, every time.Duration, fn func([]byte, *Record) error) error {
	var (
		file    *os.File
		info    os.FileInfo
		offset  int64
		pending []byte // an incomplete last line, waiting for its newline
		buf     = make([]byte, 64<<10)
		rec     Record
	)
	defer func() {
		if file != nil {
			file.Close()
		}
	}()
	// drain passes the complete lines from offset to the file's end.
	drain := func() error {
		for {
			n, err := file.ReadAt(buf, offset)
			offset += int64(n)
			pending = append(pending, buf[:n]...)
			for {
				i := bytes.IndexByte(pending, '\n')
				if i < 0 {
					break
				}
				line := pending[:i]
				if len(line) <= maxLine && rec.UnmarshalJSON(line) == nil && f.match(&rec) {
					if err := fn(line, &rec); err != nil {
						return err
					}
				}
				pending = pending[i+1:]
			}
			if len(pending) > maxLine {
				pending = pending[:0] // not a line a writer wrote: drop it
			}
			pending = append([]byte(nil), pending...)
			if n == 0 || err != nil {
				return nil
			}
		}
	}
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		if file == nil {
			if fh, err := os.Open(path); err == nil {
				file = fh
				info, _ = fh.Stat()
				offset, pending = 0, pending[:0]
			}
		}
		if file != nil {
			if err := drain(); err != nil {
				return err
			}
			// Rotated (another file at path) or truncated. Read what the
			// old file got since, then start over on the new one.
			if now, err := os.Stat(path); err != nil || !os.SameFile(now, info) || now.Size() < offset {
				if err := drain(); err != nil {
					return err
				}
				file.Close()
				file = nil
				continue
			}
		}
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
	}
}
