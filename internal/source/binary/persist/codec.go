package persist

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"hash/crc32"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/internal/invoke"
	"github.com/toolhost/toolhost/tool"
)

// The file of a persisted resolution (resolver's persist.go says when one
// is stored and used) is binary, so that a warm start decodes its header
// without encoding/json's reflection:
//
//	Magic            "toolhost resolution\n"
//	CRC-32 (IEEE)    4 bytes, little endian, of the header
//	header length    4 bytes, little endian
//	header           fields in the order of Encode
//	body             the raw JSON blobs the header's spans point into
//
// Integers are varints. Strings and lists are preceded by their length.
// The spans of the body are the tools/list result and each tool's detail.
// Each span is followed in the header by the CRC-32 of its bytes. So one
// tool's detail can be read and checked without reading the rest of the
// body (DecodeOne, for resolver's Options.Only).
//
// The file is hostile input. The decoders check every length against what
// is left, so no allocation exceeds the file. They check every span
// against the body, and every CRC. They return ErrBad for anything else.

// Version is the version of the format. A file of another version does
// not decode.
const Version = 11 // 2: long_lived; 3: layers key and plan; 4: binary header; 5: CRC-32 (IEEE); 6: a CRC per span; 7: access policy; 8: no plan for a configuration with secrets; 9: rate limits and the sources kept; 10: the sources keep their own snapshot, a detail is a catalog.Tool, a warning is data; 11: a tool's settings under their TOML names

// MaxFile bounds the size of a persisted resolution.
const MaxFile = 64 << 20

// Magic starts every file of a persisted resolution.
const Magic = "toolhost resolution\n"

// prefixLen is the length of the magic, the header's CRC and its length.
const prefixLen = len(Magic) + 8

// ErrBad is a persisted resolution that does not decode.
var ErrBad = errors.New("persist: the persisted resolution does not decode")

// Encode returns the file of header h and body. It fails only when an
// entry's Options or Access do not encode as JSON.
func Encode(h *Resolution, body []byte) ([]byte, error) {
	e := &encoder{b: make([]byte, 0, prefixLen+256*len(h.Tools)+len(body))}
	e.b = append(e.b, Magic...)
	e.b = append(e.b, 0, 0, 0, 0, 0, 0, 0, 0) // the header's CRC and length, below
	e.uint(uint64(h.Version))
	e.str(h.Key)
	e.str(h.Files)
	e.bool(h.Plan != nil)
	if h.Plan != nil {
		if err := encodePlan(e, h.Plan); err != nil {
			return nil, err
		}
	}
	e.strs(h.Keys)
	e.str(h.Identity.ServerID)
	e.uint(uint64(h.Identity.ToolsCount))
	e.str(h.Identity.ProtocolVersion)
	e.bytes(h.Problems)
	e.span(h.List, body)
	e.uint(uint64(len(h.Tools)))
	for _, t := range h.Tools {
		e.str(t.Name)
		e.str(t.Summary)
		e.str(t.Entry)
		e.str(t.Bin)
		e.bool(t.Enabled)
		e.bool(t.Protocol)
		e.bool(t.V2)
		e.bool(t.LongLived)
		e.int(int64(t.Timeout))
		e.span(t.Detail, body)
	}
	header := e.b[prefixLen:]
	binary.LittleEndian.PutUint32(e.b[len(Magic):], crc32.ChecksumIEEE(header))
	binary.LittleEndian.PutUint32(e.b[len(Magic)+4:], uint32(len(header)))
	e.b = append(e.b, body...)
	return e.b, nil
}

func encodePlan(e *encoder, p *Plan) error {
	e.uint(uint64(len(p.Groups)))
	for _, g := range p.Groups {
		e.strs(g.Spec.Command)
		e.bool(g.Spec.Shell)
		e.str(g.Spec.Dir)
		e.uint(uint64(len(g.Spec.Env)))
		for _, k := range slices.Sorted(maps.Keys(g.Spec.Env)) {
			e.str(k)
			e.str(g.Spec.Env[k])
		}
		e.bool(g.Spec.ClearEnv)
		e.str(g.Text)
		e.int(int64(g.Timeout))
		e.bool(g.Asked)
	}
	e.uint(uint64(len(p.Entries)))
	for _, se := range p.Entries {
		ce := se.Config
		if ce == nil {
			ce = &config.Entry{}
		}
		e.str(se.Key)
		e.uint(uint64(se.Group))
		e.uint(uint64(len(ce.AllowOption)))
		for _, k := range slices.Sorted(maps.Keys(ce.AllowOption)) {
			e.str(k)
			e.bool(ce.AllowOption[k])
		}
		if err := e.json(ce.Options != nil, ce.Options); err != nil {
			return err
		}
		e.str(ce.Sandbox)
		if err := e.json(ce.Access != nil, ce.Access); err != nil {
			return err
		}
	}
	e.uint(uint64(len(p.Categories)))
	for _, c := range p.Categories {
		e.str(c.ID)
		e.str(c.Name)
		e.str(c.Description)
		e.str(c.Icon)
	}
	return nil
}

// Decode decodes a persisted resolution's file into its header
// and body (a sub-slice of data). It checks the magic, the CRCs, the
// version and that every Span lies in the body. What the header means
// (its keys, entries and groups) is resolver's to check when it loads one.
func Decode(data []byte) (*Resolution, []byte, error) {
	n, err := headerLen(data, int64(len(data)))
	if err != nil {
		return nil, nil, err
	}
	header := data[prefixLen : prefixLen+n]
	if crc32.ChecksumIEEE(header) != binary.LittleEndian.Uint32(data[len(Magic):]) {
		return nil, nil, ErrBad
	}
	h, sums, err := decodeHeader(header)
	if err != nil {
		return nil, nil, err
	}
	body := data[prefixLen+n:]
	if !checkSpan(body, h.List, sums.list) {
		return nil, nil, ErrBad
	}
	for i, t := range h.Tools {
		if !checkSpan(body, t.Detail, sums.details[i]) {
			return nil, nil, ErrBad
		}
	}
	return h, body, nil
}

// DecodeOne reads from r (a file of size bytes) the header of a persisted
// resolution and the detail of the tool named name, checking the header's
// CRC and that detail's. It checks nothing else of the body. It returns the
// tool's index in h.Tools, or -1 (and a nil detail) when h has no such
// tool.
func DecodeOne(r io.ReaderAt, size int64, name string) (h *Resolution, i int, detail []byte, err error) {
	h, sums, n, err := readHeader(r, size)
	if err != nil {
		return nil, -1, nil, err
	}
	i, found := slices.BinarySearchFunc(h.Tools, name, func(st Tool, name string) int { return strings.Compare(st.Name, name) })
	if !found {
		return h, -1, nil, nil
	}
	detail, err = readSpan(r, int64(prefixLen+n), size-int64(prefixLen+n), h.Tools[i].Detail, sums.details[i])
	if err != nil {
		return nil, -1, nil, err
	}
	return h, i, detail, nil
}

// Lazy is a persisted resolution read in part: its header and its
// tools/list result. Each tool's detail is read from the file when asked
// ([Lazy.Detail]). The file must stay open as long as the details may be
// asked.
type Lazy struct {
	Header *Resolution
	List   []byte // the tools/list result, {"tools":[…]}

	r       io.ReaderAt
	body    int64 // the body's offset in the file
	bodyLen int64
	details []uint32 // the CRC of each tool's detail
}

// DecodeLazy reads from r (a file of size bytes) the header of a persisted
// resolution and its tools/list result. It checks the header's CRC, the
// list's, and that every span lies in the body. It reads no detail.
func DecodeLazy(r io.ReaderAt, size int64) (*Lazy, error) {
	h, sums, n, err := readHeader(r, size)
	if err != nil {
		return nil, err
	}
	l := &Lazy{Header: h, r: r, body: int64(prefixLen + n), bodyLen: size - int64(prefixLen+n), details: sums.details}
	for _, st := range h.Tools {
		if !st.Detail.in(l.bodyLen) {
			return nil, ErrBad
		}
	}
	if l.List, err = readSpan(r, l.body, l.bodyLen, h.List, sums.list); err != nil {
		return nil, err
	}
	return l, nil
}

// Detail reads the detail of Header.Tools[i] from the file and checks its
// CRC. It returns [ErrBad] when the bytes are not those written, or the
// reader's error.
func (l *Lazy) Detail(i int) ([]byte, error) {
	return readSpan(l.r, l.body, l.bodyLen, l.Header.Tools[i].Detail, l.details[i])
}

// Check reads every tool's detail and checks its CRC, as [Decode] does.
// It holds no detail: the body is read in order through a buffer of 64
// KiB. It returns [ErrBad] when one is not as written, or the reader's
// error.
func (l *Lazy) Check() error {
	br := bufio.NewReaderSize(io.NewSectionReader(l.r, l.body, l.bodyLen), 64<<10)
	pos := int64(0) // of br in the body
	h := crc32.NewIEEE()
	for i, st := range l.Header.Tools {
		sp := st.Detail
		if !sp.in(l.bodyLen) {
			return ErrBad
		}
		if int64(sp[0]) < pos { // not in the order written: read it on its own
			if _, err := l.Detail(i); err != nil {
				return err
			}
			continue
		}
		if _, err := br.Discard(sp[0] - int(pos)); err != nil {
			return ErrBad
		}
		h.Reset()
		for left := sp[1]; left > 0; { // in br's buffer, not a copy
			b, err := br.Peek(min(left, br.Size()))
			if len(b) == 0 {
				if errors.Is(err, io.EOF) {
					return ErrBad
				}
				return err
			}
			h.Write(b)
			br.Discard(len(b))
			left -= len(b)
		}
		if h.Sum32() != l.details[i] {
			return ErrBad
		}
		pos = int64(sp[0] + sp[1])
	}
	return nil
}

// readHeader reads and decodes the header of the file r of size bytes,
// checking its CRC. It returns the header's length.
func readHeader(r io.ReaderAt, size int64) (*Resolution, spanSums, int, error) {
	var sums spanSums
	prefix := make([]byte, prefixLen)
	if _, err := r.ReadAt(prefix, 0); err != nil {
		return nil, sums, 0, ErrBad
	}
	n, err := headerLen(prefix, size)
	if err != nil {
		return nil, sums, 0, err
	}
	header := make([]byte, n)
	if _, err := r.ReadAt(header, int64(prefixLen)); err != nil {
		return nil, sums, 0, ErrBad
	}
	if crc32.ChecksumIEEE(header) != binary.LittleEndian.Uint32(prefix[len(Magic):]) {
		return nil, sums, 0, ErrBad
	}
	h, sums, err := decodeHeader(header)
	if err != nil {
		return nil, sums, 0, err
	}
	return h, sums, n, nil
}

// readSpan reads span sp of the body and checks that its bytes have CRC
// sum. The body starts at offset body of r and holds bodyLen bytes. A span
// that leaves the body, a short read or another CRC is [ErrBad]. Another
// error of the reader is returned as it is.
func readSpan(r io.ReaderAt, body, bodyLen int64, sp Span, sum uint32) ([]byte, error) {
	if !sp.in(bodyLen) {
		return nil, ErrBad
	}
	b := make([]byte, sp[1])
	if len(b) > 0 { // an empty read at the end of the file may be io.EOF
		if _, err := r.ReadAt(b, body+int64(sp[0])); errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, ErrBad
		} else if err != nil {
			return nil, err
		}
	}
	if crc32.ChecksumIEEE(b) != sum {
		return nil, ErrBad
	}
	return b, nil
}

// headerLen checks the magic at the start of data (at least its first
// prefixLen bytes) of a file of size bytes, and returns the header's
// length, which the file must hold.
func headerLen(data []byte, size int64) (int, error) {
	if len(data) < prefixLen || string(data[:len(Magic)]) != Magic {
		return 0, ErrBad
	}
	n := int64(binary.LittleEndian.Uint32(data[len(Magic)+4:]))
	if n > size-int64(prefixLen) {
		return 0, ErrBad
	}
	return int(n), nil
}

// spanSums are the CRCs the header gives of its spans.
type spanSums struct {
	list    uint32
	details []uint32 // of h.Tools[i].Detail
}

// decodeHeader decodes a header (the bytes after the prefix, exactly) and
// the CRCs of its spans. The header's own CRC is the caller's to check.
func decodeHeader(header []byte) (*Resolution, spanSums, error) {
	var sums spanSums
	d := &decoder{b: header, s: string(header)}
	h := &Resolution{}
	if h.Version = int(d.uint()); d.bad || h.Version != Version {
		return nil, sums, ErrBad
	}
	h.Key = d.str()
	h.Files = d.str()
	if d.bool() {
		h.Plan = decodePlan(d)
	}
	h.Keys = d.strs()
	h.Identity.ServerID = d.str()
	h.Identity.ToolsCount = d.int()
	h.Identity.ProtocolVersion = d.str()
	h.Problems = d.bytes()
	h.List, sums.list = d.span()
	n := d.count()
	h.Tools = make([]Tool, 0, n)
	sums.details = make([]uint32, 0, n)
	for range n {
		st := Tool{
			Name: d.str(), Summary: d.str(), Entry: d.str(), Bin: d.str(),
			Enabled: d.bool(), Protocol: d.bool(), V2: d.bool(), LongLived: d.bool(),
			Timeout: time.Duration(d.varint()),
		}
		var sum uint32
		st.Detail, sum = d.span()
		h.Tools = append(h.Tools, st)
		sums.details = append(sums.details, sum)
	}
	if d.bad || len(d.b) != 0 {
		return nil, sums, ErrBad
	}
	return h, sums, nil
}

// checkSpan reports whether sp lies in body and its bytes have CRC sum.
func checkSpan(body []byte, sp Span, sum uint32) bool {
	b, ok := sp.Of(body)
	return ok && crc32.ChecksumIEEE(b) == sum
}

func decodePlan(d *decoder) *Plan {
	p := &Plan{}
	n := d.count()
	p.Groups = make([]Group, 0, n)
	for range n {
		g := Group{Spec: invoke.Spec{Command: d.strs(), Shell: d.bool(), Dir: d.str()}}
		if m := d.count(); m > 0 {
			g.Spec.Env = make(map[string]string, m)
			for range m {
				k := d.str()
				g.Spec.Env[k] = d.str()
			}
		}
		g.Spec.ClearEnv, g.Text, g.Timeout, g.Asked = d.bool(), d.str(), time.Duration(d.varint()), d.bool()
		p.Groups = append(p.Groups, g)
	}
	n = d.count()
	p.Entries = make([]Entry, 0, n)
	for range n {
		ce := &config.Entry{}
		se := Entry{Key: d.str(), Group: d.int(), Config: ce}
		if m := d.count(); m > 0 {
			ce.AllowOption = make(map[string]bool, m)
			for range m {
				k := d.str()
				ce.AllowOption[k] = d.bool()
			}
		}
		d.json(&ce.Options)
		ce.Sandbox = d.str()
		d.json(&ce.Access)
		p.Entries = append(p.Entries, se)
	}
	n = d.count()
	for range n {
		p.Categories = append(p.Categories, catalog.Category{ID: d.str(), Name: d.str(), Description: d.str(), Icon: d.str()})
	}
	return p
}

// encoder appends the fields of a persisted resolution.
type encoder struct{ b []byte }

func (e *encoder) uint(v uint64) { e.b = binary.AppendUvarint(e.b, v) }
func (e *encoder) int(v int64)   { e.b = binary.AppendVarint(e.b, v) }

func (e *encoder) bool(v bool) {
	if v {
		e.b = append(e.b, 1)
	} else {
		e.b = append(e.b, 0)
	}
}

func (e *encoder) str(s string) {
	e.uint(uint64(len(s)))
	e.b = append(e.b, s...)
}

func (e *encoder) bytes(b []byte) {
	e.uint(uint64(len(b)))
	e.b = append(e.b, b...)
}

func (e *encoder) strs(ss []string) {
	e.uint(uint64(len(ss)))
	for _, s := range ss {
		e.str(s)
	}
}

// json writes v as JSON when set, else nothing (an empty string). Numbers
// in v that came from [decoder.json] keep their digits.
func (e *encoder) json(set bool, v any) error {
	if !set {
		e.bytes(nil)
		return nil
	}
	data, err := tool.Marshal(v)
	if err != nil {
		return err
	}
	e.bytes(bytes.TrimSuffix(data, []byte("\n")))
	return nil
}

// span writes s and the CRC of its bytes in body.
func (e *encoder) span(s Span, body []byte) {
	e.uint(uint64(s[0]))
	e.uint(uint64(s[1]))
	b, _ := s.Of(body)
	e.uint(uint64(crc32.ChecksumIEEE(b)))
}

// decoder reads the fields encoder wrote. The first malformed field sets
// bad. Every later read then returns a zero value. So a caller checks bad
// once at the end.
type decoder struct {
	b   []byte
	s   string // if set, the whole of b as a string: str returns parts of it
	bad bool
}

func (d *decoder) uint() uint64 {
	if d.bad {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.bad = true
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) varint() int64 {
	if d.bad {
		return 0
	}
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.bad = true
		return 0
	}
	d.b = d.b[n:]
	return v
}

// int reads a non-negative int: an index, a count or an offset, none of
// which exceeds the largest file.
func (d *decoder) int() int {
	v := d.uint()
	if v > MaxFile {
		d.bad = true
		return 0
	}
	return int(v)
}

// count reads the length of a list or a string: each element takes at
// least one byte. So a length beyond what is left is malformed.
func (d *decoder) count() int {
	v := d.uint()
	if v > uint64(len(d.b)) {
		d.bad = true
		return 0
	}
	return int(v)
}

func (d *decoder) bool() bool {
	switch v := d.uint(); v {
	case 0, 1:
		return v == 1
	}
	d.bad = true
	return false
}

func (d *decoder) bytes() []byte {
	n := d.count()
	if d.bad || n == 0 {
		return nil
	}
	b := d.b[:n:n]
	d.b = d.b[n:]
	return b
}

// str reads a string. With d.s set, it is a part of d.s. So the strings
// of one header share one allocation. A warm start restores each tool's
// name, summary, entry and binary name from them.
func (d *decoder) str() string {
	if d.s == "" {
		return string(d.bytes())
	}
	b := d.bytes()
	at := len(d.s) - len(d.b) - len(b) // b ends where d.b starts
	return d.s[at : at+len(b)]
}

func (d *decoder) strs() []string {
	n := d.count()
	if n == 0 {
		return nil
	}
	ss := make([]string, 0, n)
	for range n {
		ss = append(ss, d.str())
	}
	return ss
}

// json decodes what [encoder.json] wrote into v, numbers kept as written
// (json.Number). An empty string leaves v as it is.
func (d *decoder) json(v any) {
	b := d.bytes()
	if d.bad || len(b) == 0 {
		return
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if dec.Decode(v) != nil || dec.More() {
		d.bad = true
	}
}

// span reads a Span and the CRC of its bytes.
func (d *decoder) span() (Span, uint32) {
	s := Span{d.int(), d.int()}
	sum := d.uint()
	if sum > 1<<32-1 {
		d.bad = true
	}
	return s, uint32(sum)
}
