package resolver

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/toolhost/toolhost/internal/invoke"
	"github.com/toolhost/toolhost/resolver/config"
	"github.com/toolhost/toolhost/tool"
)

// A persisted resolution is what a resolution pass produced (the merged
// tools, the problems, the identity and the tools/list bytes), stored so
// that the next process resolving the same configuration in the same
// workspace reads one file and stats the binaries instead of decoding
// schema answers, merging, linting and compiling:
//
//	CacheDir/resolutions/<sha256 of root and config files>.res
//
// The file is a binary header (persistcodec.go), then a body of raw JSON
// blobs the header points into by offset: the tools/list result, and each
// tool's detail (decoded only when the tool is first described or called).
//
// It is used only when all of these hold, else the configuration is
// resolved as before (asking binaries through the schema cache):
//   - its key equals the key of this resolution: a hash of the resolver's
//     own executable (path, size, mtime, inode, ctime: a rebuilt or
//     upgraded toolhost never reads another build's resolution), the
//     workspace root and the whole configuration as loaded (every entry,
//     field and file:line position, every category);
//   - every binary asked for its schema has the same stat key as when the
//     resolution was made ([statKeyOf]: a rebuilt binary or an edited
//     script is asked again); with [Options.Only], only the binary of
//     that tool;
//   - the file's CRCs match (the header's, and each span's), it decodes,
//     and every tool names an entry of the configuration. With
//     [Options.Only] naming a tool it has, only the header and that
//     tool's detail are read and checked (loadOne), and the catalog holds
//     that tool alone.
//
// A resolution is stored only when nothing in it is in doubt: no error
// problem (a binary that failed, timed out — a transient failure is
// retried — or a tool left out), and a stat key for every binary asked
// (go run, shell commands and other launchers have none). Warnings are
// kept, with their sentinel errors for errors.Is. The file follows the
// schema cache's rules for hostile files (see diskcache.go): opened with
// O_NOFOLLOW|O_NONBLOCK, fstat'ed as a regular file of bounded size,
// written to a temporary file and renamed.

const resolutionVersion = 7 // 2: long_lived; 3: layers key and plan; 4: binary header; 5: CRC-32 (IEEE); 6: a CRC per span; 7: access policy

// maxResolutionFile bounds the size of a persisted resolution.
const maxResolutionFile = 64 << 20

// persistence is where a catalog's resolution is stored, and under which key.
type persistence struct {
	dir   string // CacheDir/resolutions
	path  string
	key   string // of the configuration as loaded; "" when it was not read (Open)
	files string // layersKey of its files; "": the configuration must be read to use it
}

// newPersistence returns the persistence of cfg in root, nil when the
// resolution cannot be persisted. With a nil cfg (Open, before reading
// the configuration), only the files key can match.
func newPersistence(cacheDir, root string, cfg *config.Config, filesKey string, files []string) *persistence {
	if cacheDir == "" || (cfg == nil && filesKey == "") {
		return nil
	}
	name := sha256.Sum256([]byte(root + "\x00" + strings.Join(files, "\x00")))
	dir := filepath.Join(cacheDir, "resolutions")
	p := &persistence{dir: dir, path: filepath.Join(dir, hex.EncodeToString(name[:16])+".res"), files: filesKey}
	if cfg == nil {
		return p
	}
	self, ok := selfKey()
	if !ok {
		return nil
	}
	data, err := json.Marshal(struct {
		Version int            `json:"v"`
		Self    fileKey        `json:"self"`
		Root    string         `json:"root"`
		Config  *config.Config `json:"config"`
	}{resolutionVersion, self, root, cfg})
	if err != nil {
		return nil // a value the configuration holds does not marshal: no trustworthy key
	}
	sum := sha256.Sum256(data)
	p.key = hex.EncodeToString(sum[:])
	return p
}

// selfKey is the stat key of the running executable.
func selfKey() (fileKey, bool) {
	exe, err := os.Executable()
	if err != nil {
		return fileKey{}, false
	}
	return statFile(exe)
}

// layersKey identifies the configuration files of root by their stat
// (path, size, mtime in ns, device, inode, ctime: an edit that keeps the
// size and restores the mtime still changes the ctime), with the
// resolver's own executable: a persisted resolution stored under it is
// served without reading the configuration. "" when a file is not a
// regular file or there is none.
func layersKey(root string, files []string) string {
	if len(files) == 0 {
		return ""
	}
	self, ok := selfKey()
	if !ok {
		return ""
	}
	h := newKeyHash(resolutionVersion)
	h.file(self)
	h.str(root)
	h.int(int64(len(files)))
	for _, f := range files {
		abs, err := filepath.Abs(f)
		if err != nil {
			return ""
		}
		k, ok := statFile(abs)
		if !ok {
			return ""
		}
		h.file(k)
	}
	return h.sum()
}

// storedResolution is the header of a persisted resolution (its encoding:
// persistcodec.go).
type storedResolution struct {
	Version  int
	Key      string
	Files    string      // layersKey of the configuration files, when it had no problems
	Plan     *storedPlan // with Files: what restore needs of the configuration
	Keys     []string    // stat key of each asked group, in plan order
	Identity Identity
	Problems []byte       // the warnings, JSON of []storedProblem; nil when none
	List     span         // the tools/list result {"tools":[…]}
	Tools    []storedTool // sorted by name
}

// storedPlan is what a restored catalog needs of its configuration: every
// invocation (in plan order, for the stat keys) and, for the entries its
// tools come from, their group and the fields a binding takes.
type storedPlan struct {
	Groups     []storedGroup    `json:"groups"`
	Entries    []storedEntry    `json:"entries"`
	Categories []storedCategory `json:"categories,omitempty"`
}

type storedGroup struct {
	Command  []string
	Shell    bool
	Dir      string
	Env      map[string]string
	ClearEnv bool
	Text     string // the command as written
	Timeout  time.Duration
	Asked    bool
}

type storedEntry struct {
	Key         string
	Group       int
	AllowOption map[string]bool
	Options     []byte // JSON, numbers kept as written
	Policy      []byte // JSON storedPolicy; nil when the entry has none
}

type storedCategory struct {
	ID, Name, Description, Icon string
}

// storePlan returns what restorePlan needs of p for tools.
func storePlan(p *plan, tools []storedTool) (*storedPlan, error) {
	sp := &storedPlan{}
	index := map[*group]int{}
	for i, g := range p.order {
		index[g] = i
		sp.Groups = append(sp.Groups, storedGroup{Command: g.spec.Command, Shell: g.spec.Shell, Dir: g.spec.Dir, Env: g.spec.Env,
			ClearEnv: g.spec.ClearEnv, Text: g.command, Timeout: g.timeout, Asked: g.asked})
	}
	seen := map[string]bool{}
	for _, st := range tools {
		ce := p.byKey[st.Entry]
		if ce == nil || seen[st.Entry] {
			continue
		}
		seen[st.Entry] = true
		se := storedEntry{Key: st.Entry, Group: index[p.groupOf[ce]], AllowOption: ce.AllowOption}
		if ce.Options != nil {
			data, err := tool.Marshal(ce.Options)
			if err != nil {
				return nil, err
			}
			se.Options = data
		}
		policy, err := storePolicy(ce)
		if err != nil {
			return nil, err
		}
		se.Policy = policy
		sp.Entries = append(sp.Entries, se)
	}
	for _, c := range p.categories {
		sp.Categories = append(sp.Categories, storedCategory(c))
	}
	return sp, nil
}

// restorePlan rebuilds a plan from sp: entries hold only what a binding
// takes (AllowOption, Options).
func restorePlan(sp *storedPlan) (*plan, bool) {
	p := &plan{restored: true, groups: map[string]*group{}, groupOf: map[*config.Entry]*group{}, byKey: map[string]*config.Entry{}}
	for _, sg := range sp.Groups {
		spec := &invoke.Spec{Command: sg.Command, Shell: sg.Shell, Dir: sg.Dir, Env: sg.Env, ClearEnv: sg.ClearEnv}
		g := &group{key: invocationKey(spec), spec: spec, command: sg.Text, timeout: sg.Timeout, asked: sg.Asked}
		if p.groups[g.key] != nil || len(sg.Command) == 0 {
			return nil, false
		}
		p.groups[g.key] = g
		p.order = append(p.order, g)
	}
	for _, se := range sp.Entries {
		if se.Group < 0 || se.Group >= len(p.order) || p.byKey[se.Key] != nil {
			return nil, false
		}
		ce := &config.Entry{AllowOption: se.AllowOption}
		if len(se.Options) > 0 {
			dec := json.NewDecoder(bytes.NewReader(se.Options))
			dec.UseNumber() // numbers keep their digits
			if err := dec.Decode(&ce.Options); err != nil {
				return nil, false
			}
		}
		if !restorePolicy(se.Policy, ce) {
			return nil, false
		}
		p.byKey[se.Key] = ce
		g := p.order[se.Group]
		p.groupOf[ce] = g
		if pol := policyOf(ce); !g.spec.Sandbox.Enforced() && pol.Enforced() {
			g.spec.Sandbox = pol // as newPlan does
		}
	}
	for _, c := range sp.Categories {
		p.categories = append(p.categories, Category(c))
	}
	return p, true
}

// span is [offset, length] in the body.
type span [2]int

func (s span) of(body []byte) ([]byte, bool) {
	if s[0] < 0 || s[1] < 0 || s[0] > len(body) || s[1] > len(body)-s[0] {
		return nil, false
	}
	return body[s[0] : s[0]+s[1]], true
}

// storedTool is one tool's entry in the header.
type storedTool struct {
	Name      string
	Summary   string
	Enabled   bool
	Entry     string // its configuration entry: tools.NAME or toolsets.NAME
	Bin       string // its name inside the binary
	Protocol  bool
	V2        bool          // the binary speaks protocol v2
	LongLived bool          // it declared long_lived (v2)
	Timeout   time.Duration // per run, as merged
	Detail    span
}

// storedDetail is a tool's detail in the body; its definition is rebuilt
// from it (the input schema from the parameters, as merge builds it).
type storedDetail struct {
	Annotations      map[string]any             `json:"annotations,omitempty"`
	Description      string                     `json:"description,omitempty"`
	Examples         string                     `json:"examples,omitempty"`
	Parameters       map[string]*tool.Parameter `json:"parameters"`
	Category         string                     `json:"category,omitempty"`
	Tags             []string                   `json:"tags,omitempty"`
	RequiresApproval bool                       `json:"requires_approval,omitempty"`
	Run              RunMode                    `json:"run,omitempty"`
	Answers          map[string]any             `json:"answers,omitempty"`
	Cancellation     string                     `json:"cancellation_response,omitempty"`
	Timeout          time.Duration              `json:"timeout,omitempty"`
	Source           string                     `json:"source"`
	Provenance       map[string]string          `json:"provenance"`

	// Protocol v2: served as given, not rebuilt from Parameters.
	Title        string         `json:"title,omitempty"`
	Icons        []Icon         `json:"icons,omitempty"`
	OutputSchema map[string]any `json:"output_schema,omitempty"`
	RawInput     map[string]any `json:"input_schema,omitempty"` // a raw input schema (Parameters is nil then)
}

// storedProblem is a warning; errors are never stored.
type storedProblem struct {
	Tool  string     `json:"tool,omitempty"`
	Place string     `json:"place,omitempty"`
	Fix   string     `json:"fix,omitempty"`
	Msg   string     `json:"msg"`             // the cause's message (of Err.Err for an *Error)
	Kinds []string   `json:"kinds,omitempty"` // the sentinels it matches
	Error *storedErr `json:"error,omitempty"` // set when the cause is an *Error
}

type storedErr struct {
	Tool    string      `json:"tool"`
	Command string      `json:"command"`
	Action  tool.Action `json:"action"`
	Offered []string    `json:"offered,omitempty"`
	Fix     string      `json:"fix,omitempty"`
}

// sentinels are the errors a stored problem remembers matching, by name.
var sentinels = map[string]error{
	"unknown_tool": ErrUnknownTool, "invalid_name": ErrInvalidName, "duplicate": ErrDuplicate,
	"not_object": ErrNotObject, "not_found": ErrNotFound, "not_executable": ErrNotExecutable,
	"exit": ErrExit, "not_json": ErrNotJSON, "protocol": ErrProtocol, "not_schema": ErrNotSchema,
	"timeout": ErrTimeout, "output_too_large": ErrOutputTooLarge, "tool_not_offered": ErrToolNotOffered,
}

// restoredError is a stored problem's cause: its message, matching the
// sentinels the original matched.
type restoredError struct {
	msg   string
	kinds []error
}

func (e *restoredError) Error() string   { return e.msg }
func (e *restoredError) Unwrap() []error { return e.kinds }

func storeProblem(p Problem) storedProblem {
	sp := storedProblem{Tool: p.Tool, Place: p.Place, Fix: p.Fix}
	cause := p.Err
	var e *Error
	if errors.As(p.Err, &e) && e == p.Err {
		sp.Error = &storedErr{Tool: e.Tool, Command: e.Command, Action: e.Action, Offered: e.Offered, Fix: e.Fix}
		cause = e.Err
	}
	if cause != nil {
		sp.Msg = cause.Error()
		for _, name := range slices.Sorted(maps.Keys(sentinels)) {
			if errors.Is(cause, sentinels[name]) {
				sp.Kinds = append(sp.Kinds, name)
			}
		}
	}
	return sp
}

func (sp storedProblem) restore() Problem {
	cause := &restoredError{msg: sp.Msg}
	for _, k := range sp.Kinds {
		if s, ok := sentinels[k]; ok {
			cause.kinds = append(cause.kinds, s)
		}
	}
	p := Problem{Tool: sp.Tool, Place: sp.Place, Warning: true, Fix: sp.Fix, Err: cause}
	if e := sp.Error; e != nil {
		p.Err = &Error{Tool: e.Tool, Command: e.Command, Action: e.Action, Offered: e.Offered, Fix: e.Fix, Err: cause}
	}
	return p
}

// persistable reports whether a resolution may be stored: nothing in it
// is in doubt.
func (c *Catalog) persistable(r *resolution) bool {
	if len(r.retry) > 0 {
		return false
	}
	for _, p := range r.problems {
		if !p.Warning {
			return false
		}
	}
	for _, g := range c.plan.Load().order {
		if g.asked && r.keys[g.key] == "" {
			return false
		}
	}
	return true
}

// save stores a resolution's tools (not the dynamic ones). Failing to
// store is not an error: the file only saves time.
func (c *Catalog) save(r *resolution) error {
	p := c.persist.Load()
	if p == nil || p.key == "" || !c.persistable(r) {
		return nil
	}
	pl := c.plan.Load()
	h := storedResolution{Version: resolutionVersion, Key: p.key}
	for _, g := range pl.order {
		if g.asked {
			h.Keys = append(h.Keys, string(r.keys[g.key]))
		}
	}
	if len(r.problems) > 0 {
		sps := make([]storedProblem, len(r.problems))
		for i, pr := range r.problems {
			sps[i] = storeProblem(pr)
		}
		data, err := tool.Marshal(sps)
		if err != nil {
			return err
		}
		h.Problems = data
	}
	var body bytes.Buffer
	var defs []Definition
	body.WriteString(`{"tools":[`)
	names := slices.Sorted(maps.Keys(r.tools))
	for _, name := range names {
		e := r.tools[name]
		if e.handler != nil || e.bin == nil {
			continue
		}
		t := e.t()
		if !t.Enabled {
			continue
		}
		data, err := tool.Marshal(t.Definition)
		if err != nil {
			return err
		}
		if len(defs) > 0 {
			body.WriteByte(',')
		}
		body.Write(data)
		defs = append(defs, t.Definition)
	}
	body.WriteString(`]}`)
	h.List = span{0, body.Len()}
	h.Identity = IdentityOf(defs)
	for _, name := range names {
		e := r.tools[name]
		if e.handler != nil || e.bin == nil {
			continue
		}
		t := e.t()
		data, err := tool.Marshal(storedDetail{
			Annotations: t.Annotations, Description: t.Description, Examples: t.Examples, Parameters: t.Parameters,
			Category: t.Category, Tags: t.Tags, RequiresApproval: t.RequiresApproval, Timeout: t.Timeout,
			Run: t.Run, Answers: t.Answers, Cancellation: t.CancellationResponse,
			Source: t.Source, Provenance: t.Provenance,
			Title: t.Title, Icons: t.Icons, OutputSchema: t.OutputSchema, RawInput: rawInput(t),
		})
		if err != nil {
			return err
		}
		h.Tools = append(h.Tools, storedTool{
			Name: t.Name, Summary: t.Summary, Enabled: t.Enabled, Entry: t.Provenance["entry"], Bin: e.bin.name,
			Protocol: e.bin.protocol, V2: e.bin.v2, LongLived: e.bin.longLived, Timeout: e.bin.timeout, Detail: span{body.Len(), len(data)},
		})
		body.Write(data)
	}
	if p.files != "" {
		sp, err := storePlan(pl, h.Tools)
		if err != nil {
			return err
		}
		h.Files, h.Plan = p.files, sp
	}
	if err := writeAtomic(p.dir, p.path, encodeResolution(&h, body.Bytes())); err != nil {
		return err
	}
	os.Remove(strings.TrimSuffix(p.path, ".res") + ".json") // the same workspace's file of version 3 and before, never read again
	return nil
}

// loaded is a persisted resolution ready to install.
type loaded struct {
	tools    map[string]*entry
	problems []Problem
	keys     map[string]cacheKey
	identity *Identity // nil: computed from the tools when asked
	plan     *plan     // the catalog's, or the one restored with it
	list     []byte
}

// load reads the persisted resolution when it is valid for the catalog's
// configuration and binaries as they are now (see the rules above).
func (c *Catalog) load() (*loaded, bool) {
	p := c.persist.Load()
	if p == nil || !(diskCache{dir: p.dir}).usable() {
		return nil, false
	}
	if c.only != "" {
		if l, found := c.loadOne(p); found {
			return l, l != nil
		}
	}
	data, err := readFile(p.path, maxResolutionFile)
	if err != nil {
		return nil, false
	}
	h, body, err := decodeResolution(data)
	if err != nil {
		return nil, false
	}
	l, ok := c.loadHeader(p, h)
	if !ok {
		return nil, false
	}
	l.identity = &h.Identity
	l.list, _ = h.List.of(body) // decodeResolution checked the spans
	for _, st := range h.Tools {
		detail, _ := st.Detail.of(body)
		e, ok := c.restore(l.plan, st, detail)
		if !ok {
			return nil, false
		}
		l.tools[st.Name] = e
	}
	return l, true
}

// loadOne is load for [Options.Only]: when the persisted resolution has
// the tool (found), it reads only the header and that tool's detail, and
// the catalog holds that tool alone (with the stored warnings; its
// identity and listing are computed from it). A nil *loaded with found
// means the resolution is not valid (load's rules): the configuration is
// resolved. Not found, load reads the whole file as without Only.
func (c *Catalog) loadOne(p *persistence) (l *loaded, found bool) {
	f, size, err := openFile(p.path, maxResolutionFile)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	h, i, detail, err := decodeOne(f, size, c.only)
	if err != nil || i < 0 {
		return nil, false
	}
	if l, ok := c.loadHeader(p, h); ok {
		if e, ok := c.restore(l.plan, h.Tools[i], detail); ok {
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
func (c *Catalog) loadHeader(p *persistence, h *storedResolution) (*loaded, bool) {
	restored := p.key == "" // Open, before reading the configuration: only its files' stat can match
	if restored && (h.Files == "" || h.Files != p.files || h.Plan == nil) || !restored && h.Key != p.key {
		return nil, false
	}
	pl := c.plan.Load()
	var ok bool
	if restored {
		if pl, ok = restorePlan(h.Plan); !ok {
			return nil, false
		}
	}
	l := &loaded{tools: make(map[string]*entry, len(h.Tools)), plan: pl}
	if l.keys, ok = storedKeys(pl, h.Keys); !ok || !c.current(l.keys, c.toCheck(pl, h.Tools)) {
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
// keys stored for them; false when their numbers differ or a key is empty.
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
// persisted resolution of tools is served: every asked group, or with
// [Options.Only] naming one of tools, only the group of that tool's entry
// (none when its parameters come from the configuration alone).
func (c *Catalog) toCheck(pl *plan, tools []storedTool) []*group {
	if c.only != "" {
		if i, found := slices.BinarySearchFunc(tools, c.only, func(st storedTool, name string) int {
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
func (c *Catalog) current(keys map[string]cacheKey, groups []*group) bool {
	for _, g := range groups {
		if c.statKey(g) != keys[g.key] {
			return false
		}
	}
	return true
}

// restore rebuilds one tool's entry: its binding from the configuration
// entry, its detail decoded on first use.
func (c *Catalog) restore(pl *plan, st storedTool, detail []byte) (*entry, bool) {
	ce := pl.byKey[st.Entry]
	if ce == nil || st.Name == "" {
		return nil, false
	}
	g := pl.groupOf[ce]
	spec := g.spec
	if allow := allowed(ce.AllowOption); allow != nil {
		s := *g.spec
		s.AllowOption = allow
		spec = &s
	}
	spec = withPolicy(spec, ce)
	access, _, err := spec.Sandbox.Wire(c.root)
	if err != nil {
		return nil, false // resolve afresh, which reports it
	}
	e := &entry{name: st.Name, summary: st.Summary, enabled: st.Enabled, bin: &binding{
		spec: spec, group: g, name: st.Bin, options: maps.Clone(ce.Options), timeout: st.Timeout, protocol: st.Protocol, v2: st.V2, longLived: st.LongLived,
		access: access,
	}}
	e.decode = func() *Tool {
		var d storedDetail
		dec := json.NewDecoder(bytes.NewReader(detail))
		dec.UseNumber() // numbers keep their digits
		if err := dec.Decode(&d); err != nil {
			// The CRC matched, so only a hostile writer gets here: serve
			// the tool without parameters, and resolve afresh next time.
			if p := c.persist.Load(); p != nil {
				os.Remove(p.path)
			}
			d = storedDetail{Source: "(unreadable persisted resolution)", Provenance: map[string]string{}}
		}
		input := d.RawInput
		if input == nil {
			input = tool.InputSchema(d.Parameters)
		}
		t := &Tool{
			Definition: Definition{Name: st.Name, Summary: st.Summary, InputSchema: input, Annotations: d.Annotations,
				Title: d.Title, Icons: d.Icons, OutputSchema: d.OutputSchema},
			Description: d.Description, Examples: d.Examples, Parameters: d.Parameters, Category: d.Category, Tags: d.Tags,
			RequiresApproval: d.RequiresApproval, Timeout: d.Timeout, Enabled: st.Enabled, Source: d.Source, Provenance: d.Provenance,
			Run: d.Run, Answers: d.Answers, CancellationResponse: d.Cancellation,
		}
		return t
	}
	return e, true
}

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

// rawInput is a tool's input schema when it is a raw one (protocol v2),
// which Parameters cannot rebuild; nil otherwise.
func rawInput(t *Tool) map[string]any {
	if t.Parameters == nil && t.InputSchema != nil && !t.Dynamic {
		return t.InputSchema
	}
	return nil
}
