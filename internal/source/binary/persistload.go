package binary

import (
	"encoding/json"
	"errors"
	"maps"
	"os"
	"runtime"
	"slices"
	"strings"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/internal/source/binary/persist"
	"github.com/toolhost/toolhost/internal/source/internal/cachefile"
	"github.com/toolhost/toolhost/tool"
)

// This file reads a persisted resolution back. Store.go says when one is
// used. It reads the header and the tools/list result, and checks every
// detail, read again when asked. With Options.Only it reads the header
// and one tool's detail. With Options.ListOnly it reads the header and
// the tools/list result alone. It is checked against the binaries' stat
// keys before it is served.

// loaded is a persisted resolution ready to install.
type loaded struct {
	tools    map[string]*entry
	problems []catalog.Problem
	keys     map[string]cacheKey
	identity *catalog.Identity // nil: computed from the tools when asked
	plan     *plan             // the catalog's, or the one restored with it
	list     []byte
}

// load reads the persisted resolution when it is valid for the catalog's
// configuration and binaries as they are now (see the rules above).
func (s *store) load(pl *plan) (*loaded, bool) {
	p := s.persist.Load()
	if p == nil || !cachefile.Usable(p.dir) {
		return nil, false
	}
	if s.only != "" {
		if l, found := s.loadOne(p, pl); found {
			return l, l != nil
		}
	}
	if s.listOnly || keepOpen {
		return s.loadLazy(p, pl, !s.listOnly)
	}
	data, _, err := cachefile.Read(p.path, persist.MaxFile)
	if err != nil {
		return nil, false
	}
	h, body, err := persist.Decode(data)
	if err != nil {
		return nil, false
	}
	l, ok := s.loadHeader(p, pl, h)
	if !ok {
		return nil, false
	}
	l.identity = &h.Identity
	l.list, _ = h.List.Of(body) // persist.Decode checked the spans
	rs := make([]restoredTool, len(h.Tools))
	for i, st := range h.Tools {
		detail, _ := st.Detail.Of(body)
		rs[i] = restoredTool{s: s, detail: detail}
		e, ok := s.restore(l.plan, st, &rs[i])
		if !ok {
			return nil, false
		}
		l.tools[st.Name] = e
	}
	return l, true
}

// keepOpen is whether a persisted resolution's file may stay open while
// its details are read from it. On Windows an open file cannot be
// replaced: the next resolution stored would fail.
const keepOpen = runtime.GOOS != "windows"

// loadLazy reads the header and the tools/list result, about a quarter
// of the file for 1000 tools. With check, it then reads every tool's
// detail through a small buffer and checks its CRC. Each detail is read
// again from the file, still open, when first asked. So the details of a
// catalog served long, as by serve, take no memory until asked. A detail
// may then be found not as written: changed in place, or never checked
// with [Options.ListOnly]. It cannot be resolved afresh any more. Its
// tool is served without parameters (see restore).
func (s *store) loadLazy(p *persistence, pl *plan, check bool) (*loaded, bool) {
	f, fi, err := cachefile.Open(p.path, persist.MaxFile)
	if err != nil {
		return nil, false
	}
	lz, err := persist.DecodeLazy(f, fi.Size())
	var l *loaded
	ok := err == nil
	if ok {
		l, ok = s.loadHeader(p, pl, lz.Header)
	}
	if ok && check {
		ok = lz.Check() == nil
	}
	if !ok {
		f.Close()
		return nil, false
	}
	// f stays open while the entries may read their details from it. It
	// is closed with the last of them, by its finalizer, or when the
	// process ends.
	l.identity = &lz.Header.Identity
	l.list = lz.List
	rs := make([]restoredTool, len(lz.Header.Tools))
	for i, st := range lz.Header.Tools {
		rs[i] = restoredTool{s: s, lz: lz, i: i}
		e, ok := s.restore(l.plan, st, &rs[i])
		if !ok {
			f.Close()
			return nil, false
		}
		l.tools[st.Name] = e
	}
	return l, true
}

// loadOne is load for [Options.Only]. When the persisted resolution has
// the tool (found), it reads only the header and that tool's detail. The
// catalog then holds that tool alone, with the stored warnings. Its
// identity and listing are computed from it. A nil *loaded with found
// means the resolution is not valid (load's rules): the configuration is
// resolved. Not found, load reads the whole file as without Only.
func (s *store) loadOne(p *persistence, pl *plan) (l *loaded, found bool) {
	f, fi, err := cachefile.Open(p.path, persist.MaxFile)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	h, i, detail, err := persist.DecodeOne(f, fi.Size(), s.only)
	if err != nil || i < 0 {
		return nil, false
	}
	if l, ok := s.loadHeader(p, pl, h); ok {
		if e, ok := s.restore(l.plan, h.Tools[i], &restoredTool{s: s, detail: detail}); ok {
			l.tools[e.name] = e
			return l, true
		}
	}
	return nil, true
}

// loadHeader checks a persisted resolution's header against the catalog
// (its key, or with Open its configuration files' stat, and the stat key
// of each binary toCheck names), and returns what installing it needs but
// its tools, identity and listing.
func (s *store) loadHeader(p *persistence, pl *plan, h *persist.Resolution) (*loaded, bool) {
	restored := p.key == "" // Open, before reading the configuration: only its files' stat can match
	if restored && (h.Files == "" || h.Files != p.files || h.Plan == nil) || !restored && h.Key != p.key {
		return nil, false
	}
	var ok bool
	if restored {
		if pl, ok = restorePlan(h.Plan); !ok {
			return nil, false
		}
	}
	l := &loaded{tools: make(map[string]*entry, len(h.Tools)), plan: pl}
	if l.keys, ok = storedKeys(pl, h.Keys); !ok || !s.current(l.keys, s.toCheck(pl, h.Tools)) {
		return nil, false // rebuilt, edited or gone
	}
	if len(h.Problems) > 0 {
		var sps []storedProblem
		if err := json.Unmarshal(h.Problems, &sps); err != nil {
			return nil, false
		}
		for _, sp := range sps {
			l.problems = append(l.problems, sp.restore())
		}
	}
	return l, true
}

// storedKeys pairs the asked groups of pl, in plan order, with the stat
// keys stored for them, false when their numbers differ or a key is empty.
func storedKeys(pl *plan, stored []string) (map[string]cacheKey, bool) {
	keys := make(map[string]cacheKey, len(stored))
	i := 0
	for _, g := range pl.order {
		if !g.asked {
			continue
		}
		if i >= len(stored) || stored[i] == "" {
			return nil, false
		}
		keys[g.key] = cacheKey(stored[i])
		i++
	}
	return keys, i == len(stored)
}

// toCheck returns the groups whose binaries must be stat'ed before a
// persisted resolution of tools is served. That is every asked group.
// With [Options.Only] naming one of tools, it is only the group of that
// tool's entry, or none when its parameters come from the configuration
// alone.
func (s *store) toCheck(pl *plan, tools []persist.Tool) []*group {
	if s.only != "" {
		if i, found := slices.BinarySearchFunc(tools, s.only, func(st persist.Tool, name string) int {
			return strings.Compare(st.Name, name)
		}); found {
			if g := pl.groupOf[pl.byKey[tools[i].Entry]]; g != nil && g.asked {
				return []*group{g}
			}
			return nil
		}
	}
	var out []*group
	for _, g := range pl.order {
		if g.asked {
			out = append(out, g)
		}
	}
	return out
}

// current reports whether each of groups has the stat key stored for it.
func (s *store) current(keys map[string]cacheKey, groups []*group) bool {
	for _, g := range groups {
		if s.stat(g) != keys[g.key] {
			return false
		}
	}
	return true
}

// restore rebuilds one tool's entry in r: its binding from the
// configuration entry, its detail decoded on first use ([restoredTool]).
func (s *store) restore(pl *plan, st persist.Tool, r *restoredTool) (*entry, bool) {
	ce := pl.byKey[st.Entry]
	if ce == nil || st.Name == "" {
		return nil, false
	}
	g := pl.groupOf[ce]
	spec := g.spec
	if allow := allowed(ce.AllowOption); allow != nil {
		cp := *g.spec
		cp.AllowOption = allow
		spec = &cp
	}
	spec = withPolicy(spec, ce)
	access, _, err := spec.Sandbox.Wire(s.root)
	if err != nil {
		return nil, false // resolve afresh, which reports it
	}
	r.b = binding{
		host: s.host, spec: spec, group: g, name: st.Bin, options: maps.Clone(ce.Options), timeout: st.Timeout, protocol: st.Protocol, v2: st.V2, longLived: st.LongLived,
		access: access, secrets: secretsOf(ce),
	}
	r.e = entry{name: st.Name, summary: st.Summary, enabled: st.Enabled, bin: &r.b, decode: r.decode}
	return &r.e, true
}

// restoredTool is one tool of a persisted resolution: its entry, its
// binding and where its detail is. A resolution's are allocated together,
// in one slice.
type restoredTool struct {
	e entry
	b binding

	s      *store
	detail []byte        // the detail, or nil: read it from lz
	lz     *persist.Lazy // the file read in part, whose tool i this is
	i      int
}

// decode decodes the tool's detail ([entry.decode]), read from the file
// first if it was not read whole.
func (r *restoredTool) decode() *catalog.Tool {
	d, err := r.detail, error(nil)
	if r.lz != nil {
		d, err = r.lz.Detail(r.i)
	}
	r.detail, r.lz = nil, nil // decoded once: the file may go
	var t *catalog.Tool
	if err == nil {
		t, err = cachefile.UnmarshalTool(d)
	}
	if err != nil {
		// A detail read when the resolution was served had its CRC
		// checked then: only a hostile writer gets here. One read later
		// may also find the file changed, or fail to read. Serve the tool
		// without parameters, and resolve afresh next time when the file
		// is not as written.
		if p := r.s.persist.Load(); p != nil && (d != nil || errors.Is(err, persist.ErrBad)) {
			os.Remove(p.path)
		}
		t = &catalog.Tool{Definition: catalog.Definition{InputSchema: tool.InputSchema(nil)},
			Source: "(unreadable persisted resolution)", Provenance: map[string]string{}}
	}
	t.Name, t.Summary, t.Enabled = r.e.name, r.e.summary, r.e.enabled
	return t
}
