package servers

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/internal/source/internal/cachefile"
	"github.com/toolhost/toolhost/internal/source/mcp"
	"github.com/toolhost/toolhost/tool"
)

// Kept is what a catalog keeps of an MCP server's source across runs
// (in the servers' snapshot, [Save]), so that the next run serves the
// server's tools without reading the configuration, its listing cache or
// merging: the tools the source made of its listing, and the listing's
// [mcp.Validity]. It is valid while the configuration is unchanged (the
// catalog's to check: the tools follow from it and the listing) and
// [Kept.Holds]: the same listing cache file, program and scripts, within
// the listing's freshness. A stale listing is never served: past its
// freshness the kept tools do not hold, the source is made from the
// configuration again and lists as it would have.
type Kept struct {
	Name     string       `json:"name"`
	Validity mcp.Validity `json:"validity"`
	Tools    []KeptTool   `json:"tools"`
}

// KeptTool is one kept tool: what a listing shows of it, and its detail
// (JSON), decoded on first use ([KeptTool.Tool]).
type KeptTool struct {
	Name    string
	Summary string
	Enabled bool
	Detail  []byte
}

// Tool decodes the kept tool's detail (numbers kept as written).
func (k KeptTool) Tool() (*catalog.Tool, error) {
	t, err := cachefile.UnmarshalTool(k.Detail)
	if err != nil {
		return nil, fmt.Errorf("servers: kept tool %q: %w", k.Name, err)
	}
	t.Name, t.Summary, t.Enabled = k.Name, k.Summary, k.Enabled
	return t, nil
}

// keepTool is the kept form of t: the catalog's own type, encoded once
// (package internal/source/internal/cachefile).
func keepTool(t *catalog.Tool) (KeptTool, error) {
	detail, err := cachefile.MarshalTool(t)
	if err != nil {
		return KeptTool{}, err
	}
	return KeptTool{Name: t.Name, Summary: t.Summary, Enabled: t.Enabled, Detail: detail}, nil
}

// Keep returns what may be kept of src, a source of [Sources], as its
// last listing left it. It returns false when nothing may. That is so when
// src is not an MCP server's, as a remote's manifest is not kept. It is so
// when its last listing failed or had problems. It is so when its listing
// is not one the cache serves again (see [mcp.Source.Validity]).
func Keep(src catalog.Source) (Kept, bool) {
	s, ok := src.(*server)
	if !ok {
		return Kept{}, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.keepable || len(s.problems) > 0 {
		return Kept{}, false
	}
	return Kept{Name: s.name, Validity: s.validity, Tools: s.kept}, true
}

// Holds reports whether k may be served at now (see [Kept]).
func (k *Kept) Holds(now time.Time) bool { return k.Validity.Holds(now) }

// The kept form of sources is an index, one line of JSON, then the tools'
// details, one JSON object each. The index holds the sources, their
// validity, and each tool's name, summary, enabled and the span of its
// detail. So a warm start decodes the index alone, and a detail when it is
// first used.
type keptIndex struct {
	Name     string       `json:"name"`
	Validity mcp.Validity `json:"validity"`
	Tools    []keptEntry  `json:"tools"`
}

type keptEntry struct {
	Name    string `json:"name"`
	Summary string `json:"summary,omitempty"`
	Enabled bool   `json:"enabled,omitempty"`
	Detail  [2]int `json:"detail"` // offset and length after the index's line
}

// EncodeKept is the kept form of ks, for DecodeKept.
func EncodeKept(ks []Kept) ([]byte, error) {
	var details bytes.Buffer
	index := make([]keptIndex, len(ks))
	for i, k := range ks {
		index[i] = keptIndex{Name: k.Name, Validity: k.Validity, Tools: make([]keptEntry, len(k.Tools))}
		for j, t := range k.Tools {
			index[i].Tools[j] = keptEntry{Name: t.Name, Summary: t.Summary, Enabled: t.Enabled, Detail: [2]int{details.Len(), len(t.Detail)}}
			details.Write(t.Detail)
		}
	}
	head, err := tool.Marshal(index) // one line: JSON strings escape their newlines
	if err != nil {
		return nil, err
	}
	return append(append(head, '\n'), details.Bytes()...), nil
}

// DecodeKept reads what [EncodeKept] wrote, the tools' details left
// undecoded (each is checked when [KeptTool.Tool] decodes it). An error
// for anything else.
func DecodeKept(data []byte) ([]Kept, error) {
	nl := bytes.IndexByte(data, '\n')
	if nl < 0 {
		return nil, fmt.Errorf("servers: kept sources: no index")
	}
	var index []keptIndex
	if err := json.Unmarshal(data[:nl], &index); err != nil {
		return nil, fmt.Errorf("servers: kept sources: %w", err)
	}
	details := data[nl+1:]
	ks := make([]Kept, len(index))
	for i, k := range index {
		if k.Name == "" {
			return nil, fmt.Errorf("servers: a kept source without a name")
		}
		ks[i] = Kept{Name: k.Name, Validity: k.Validity, Tools: make([]KeptTool, len(k.Tools))}
		for j, t := range k.Tools {
			off, n := t.Detail[0], t.Detail[1]
			if t.Name == "" || n <= 0 || off < 0 || off > len(details) || n > len(details)-off {
				return nil, fmt.Errorf("servers: kept tool %q of %q: no name, or its detail is not in the data", t.Name, k.Name)
			}
			ks[i].Tools[j] = KeptTool{Name: t.Name, Summary: t.Summary, Enabled: t.Enabled, Detail: details[off : off+n : off+n]}
		}
	}
	return ks, nil
}

// Restore returns the source of k: its kept tools listed without
// starting or reading anything. The source itself, made by open (from
// the configuration, as [Sources] makes it) on first need: a call, or a
// listing after it changed. A source open cannot make is the error of
// that call.
func Restore(k Kept, open func(ctx context.Context, name string) (catalog.Source, error)) catalog.Source {
	return &restored{name: k.Name, kept: k.Tools, open: open, watchers: map[int]func(){}}
}

// restored is a source served from what was kept of it (Restore).
type restored struct {
	// fixed at creation
	name string
	kept []KeptTool
	open func(context.Context, string) (catalog.Source, error)

	mu       sync.Mutex
	real     catalog.Source // nil until first need
	opening  chan struct{}  // closed when the open under way ends
	closed   bool
	watchers map[int]func()
	nextW    int
}

// Name returns the kept source's name.
func (r *restored) Name() string { return r.name }

// Tools returns the kept tools until the source is made, then its own.
func (r *restored) Tools(ctx context.Context) ([]*catalog.Tool, error) {
	r.mu.Lock()
	real := r.real
	r.mu.Unlock()
	if real != nil {
		return real.Tools(ctx)
	}
	out := make([]*catalog.Tool, len(r.kept))
	for i, kt := range r.kept {
		t, err := kt.Tool()
		if err != nil {
			return nil, err
		}
		out[i] = t
	}
	return out, nil
}

// source returns the source, made and listed on first need. Once made,
// the watchers hear of it, so that the catalog lists its tools from it.
func (r *restored) source(ctx context.Context) (catalog.Source, error) {
	for {
		r.mu.Lock()
		if r.closed {
			r.mu.Unlock()
			return nil, fmt.Errorf("%s: the catalog is closed", r.name)
		}
		if r.real != nil {
			real := r.real
			r.mu.Unlock()
			return real, nil
		}
		if wait := r.opening; wait != nil {
			r.mu.Unlock()
			select {
			case <-wait:
				continue
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		done := make(chan struct{})
		r.opening = done
		r.mu.Unlock()
		src, err := r.open(ctx, r.name)
		if err == nil {
			_, err = src.Tools(ctx) // what calls go by (the server's names of the served tools)
			if err != nil {
				src.Close()
			}
		}
		r.mu.Lock()
		r.opening = nil
		close(done)
		if err != nil {
			r.mu.Unlock()
			return nil, err
		}
		if r.closed {
			r.mu.Unlock()
			src.Close()
			return nil, fmt.Errorf("%s: the catalog is closed", r.name)
		}
		r.real = src
		r.mu.Unlock()
		src.Watch(r.changed)
		r.changed() // list from the source now: it may know more than what was kept
		return src, nil
	}
}

// Call runs one round of a call through the source.
func (r *restored) Call(ctx context.Context, req catalog.CallRequest) (catalog.CallResult, error) {
	src, err := r.source(ctx)
	if err != nil {
		return catalog.CallResult{}, err
	}
	return src.Call(ctx, req)
}

// Format leaves the rendering of arguments to the catalog.
func (r *restored) Format(context.Context, string, map[string]any) (string, bool) { return "", false }

// Watch registers changed to run when the source's tools change.
func (r *restored) Watch(changed func()) func() {
	r.mu.Lock()
	defer r.mu.Unlock()
	id := r.nextW
	r.nextW++
	r.watchers[id] = changed
	return func() {
		r.mu.Lock()
		delete(r.watchers, id)
		r.mu.Unlock()
	}
}

func (r *restored) changed() {
	r.mu.Lock()
	fns := make([]func(), 0, len(r.watchers))
	for _, id := range sortedKeys(r.watchers) {
		fns = append(fns, r.watchers[id])
	}
	r.mu.Unlock()
	for _, f := range fns {
		f()
	}
}

// Problems returns the source's problems once it is made. None before
// (a source is kept only without problems).
func (r *restored) Problems() []catalog.Problem {
	r.mu.Lock()
	real := r.real
	r.mu.Unlock()
	if real == nil {
		return nil
	}
	return real.Problems()
}

// Close closes the source, if it was made.
func (r *restored) Close() error {
	r.mu.Lock()
	real := r.real
	r.closed = true
	r.mu.Unlock()
	if real != nil {
		return real.Close()
	}
	return nil
}

var _ catalog.Source = (*restored)(nil)

// The servers' warm-start snapshot is their own file beside the binaries'
// persisted resolution: the stem a catalog gives, plus ".servers". It
// holds the configuration files' key, then the kept form of every kept
// source, framed by package internal/source/internal/cachefile.
const (
	snapshotMagic   = "toolhost servers\n"
	snapshotVersion = 2 // 2: a tool's settings under their TOML names
	snapshotExt     = ".servers"
	maxSnapshot     = 64 << 20
)

// Save keeps ks as the servers' snapshot at stem, valid while the
// configuration's files have key. An empty ks says the configuration
// names no server. It writes only when the snapshot changed.
func Save(stem, key string, ks []Kept) error {
	var kept []byte // none: a warm start decodes no JSON
	if len(ks) > 0 {
		var err error
		if kept, err = EncodeKept(ks); err != nil {
			return err
		}
	}
	data := cachefile.Seal(snapshotMagic, snapshotVersion, append([]byte(key+"\n"), kept...))
	path := stem + snapshotExt
	if old, _, err := cachefile.Read(path, maxSnapshot); err == nil && bytes.Equal(old, data) {
		return nil
	}
	_, err := cachefile.Write(filepath.Dir(path), path, data)
	return err
}

// Load returns the servers' snapshot at stem. It returns false when there
// is none, it was saved under another key, or it does not decode: the
// configuration is then read.
func Load(stem, key string) ([]Kept, bool) {
	raw, _, err := cachefile.Read(stem+snapshotExt, maxSnapshot)
	if err != nil {
		return nil, false
	}
	payload, err := cachefile.Unseal(raw, snapshotMagic, snapshotVersion)
	if err != nil {
		return nil, false
	}
	k, kept, ok := bytes.Cut(payload, []byte("\n"))
	if !ok || key == "" || string(k) != key {
		return nil, false
	}
	if len(kept) == 0 {
		return nil, true // the configuration names no server
	}
	ks, err := DecodeKept(kept)
	if err != nil {
		return nil, false
	}
	return ks, true
}

// Forget removes the servers' snapshot at stem, so that the next warm
// start reads the configuration.
func Forget(stem string) { os.Remove(stem + snapshotExt) }
