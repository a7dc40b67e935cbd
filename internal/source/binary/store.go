package binary

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/internal/source/binary/persist"
	"github.com/toolhost/toolhost/internal/source/internal/cachefile"
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
// The file is a binary header (package internal/source/binary/persist), then a body of raw JSON
// blobs the header points into by offset: the tools/list result, and each
// tool's detail (decoded only when the tool is first described or called).
// On Unix the file stays open while the catalog serves it. A detail is
// read from it when first asked. It is not held in memory before.
//
// It is used only when all of these hold, else the configuration is
// resolved as before (asking binaries through the schema cache):
//   - its key equals the key of this resolution: a hash of the resolver's
//     own executable (path, size, mtime, inode, ctime: a rebuilt or
//     upgraded toolhost never reads another build's resolution), the
//     workspace root and the whole configuration as loaded (every entry,
//     field and file:line position, every category).
//   - every binary asked for its schema has the same stat key as when the
//     resolution was made ([statKeyOf]: a rebuilt binary or an edited
//     script is asked again). With [Options.Only], only the binary of
//     that tool.
//   - served without reading the configuration (Open), the other
//     sources' own snapshots hold too. They are kept in the same slot
//     ([Source.WarmSlot]) by package internal/source/servers. A
//     configuration naming a remote is read every time.
//   - the file's CRCs match (the header's, and each span's), it decodes,
//     and every tool names an entry of the configuration. With
//     [Options.Only] naming a tool it has, only the header and that
//     tool's detail are read and checked (loadOne), and the catalog holds
//     that tool alone. With [Options.ListOnly], only the header and the
//     tools/list result are read and checked (loadLazy). Each detail is
//     read and checked when first asked.
//
// A resolution is stored only when nothing in it is in doubt: no error
// problem (a binary that failed, timed out — a transient failure is
// retried — or a tool left out), and a stat key for every binary asked
// (go run, shell commands and other launchers have none). Warnings are
// kept as data (persistform.go). The file follows the rules of package
// internal/source/internal/cachefile for hostile files: opened with
// O_NOFOLLOW|O_NONBLOCK, fstat'ed as a regular file of bounded size,
// written 0600 to a temporary file and renamed.

// store keeps the binaries' resolution across runs. It saves one that
// nothing is in doubt of, and loads it back while the configuration and
// the binaries are as they were (the rules above). Its stored form is
// persistform.go's, its reading persistload.go's. Safe for concurrent
// use.
type store struct {
	// fixed at creation
	root, cacheDir string
	only           string                // Options.Only
	listOnly       bool                  // Options.ListOnly
	stat           func(*group) cacheKey // a group's stat key now
	host           *runner               // runs the restored tools' calls
	files          []string              // SetLoad's, set before Start
	filesKey       string                // layersKey of files; "": not persisted

	persist atomic.Pointer[persistence] // where the resolution is persisted; nil: nowhere
}

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
	}{persist.Version, self, root, cfg})
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

// layersKey identifies the configuration files of root by their stat,
// with the resolver's own executable. The stat is path, size, mtime in ns,
// device, inode and ctime. An edit that keeps the size and restores the
// mtime still changes the ctime. A persisted resolution stored under the
// key is served without reading the configuration. layersKey returns ""
// when a file is not a regular file or there is none.
func layersKey(root string, files []string) string {
	if len(files) == 0 {
		return ""
	}
	self, ok := selfKey()
	if !ok {
		return ""
	}
	h := newKeyHash(persist.Version)
	h.File(self)
	h.Str(root)
	h.Int(int64(len(files)))
	for _, f := range files {
		abs, err := filepath.Abs(f)
		if err != nil {
			return ""
		}
		k, ok := statFile(abs)
		if !ok {
			return ""
		}
		h.File(k)
	}
	return h.Sum()
}

// persistable reports whether a resolution may be stored: nothing in it
// is in doubt.
func (s *store) persistable(pl *plan, r *resolution) bool {
	if len(r.retry) > 0 {
		return false
	}
	for _, p := range r.problems {
		if !p.Warning {
			return false
		}
	}
	for _, g := range pl.order {
		if g.asked && r.keys[g.key] == "" {
			return false
		}
	}
	return true
}

// save stores a resolution's tools (not the dynamic ones). Failing to
// store is not an error: the file only saves time.
func (s *store) save(pl *plan, r *resolution) error {
	p := s.persist.Load()
	if p == nil || p.key == "" || !s.persistable(pl, r) {
		return nil
	}
	h := persist.Resolution{Version: persist.Version, Key: p.key}
	for _, g := range pl.order {
		if g.asked {
			h.Keys = append(h.Keys, string(r.keys[g.key]))
		}
	}
	if len(r.problems) > 0 {
		sps := make([]storedProblem, len(r.problems))
		for i, pr := range r.problems {
			sp, err := storeProblem(pr)
			if err != nil {
				return err
			}
			sps[i] = sp
		}
		data, err := tool.Marshal(sps)
		if err != nil {
			return err
		}
		h.Problems = data
	}
	var body bytes.Buffer
	var defs []catalog.Definition
	body.WriteString(`{"tools":[`)
	names := slices.Sorted(maps.Keys(r.tools))
	for _, name := range names {
		e := r.tools[name]
		if e.bin == nil {
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
	h.List = persist.Span{0, body.Len()}
	h.Identity = catalog.IdentityOf(defs)
	for _, name := range names {
		e := r.tools[name]
		if e.bin == nil {
			continue
		}
		t := e.t()
		data, err := cachefile.MarshalTool(t)
		if err != nil {
			return err
		}
		h.Tools = append(h.Tools, persist.Tool{
			Name: t.Name, Summary: t.Summary, Enabled: t.Enabled, Entry: t.Provenance["entry"], Bin: e.bin.name,
			Protocol: e.bin.protocol, V2: e.bin.v2, LongLived: e.bin.longLived, Timeout: e.bin.timeout, Detail: persist.Span{body.Len(), len(data)},
		})
		body.Write(data)
	}
	if p.files != "" {
		h.Files, h.Plan = p.files, storePlan(pl, h.Tools)
	}
	data, err := persist.Encode(&h, body.Bytes())
	if err != nil {
		return err
	}
	if err := writeAtomic(p.dir, p.path, data); err != nil {
		return err
	}
	os.Remove(strings.TrimSuffix(p.path, ".res") + ".json") // the same workspace's file of version 3 and before, never read again
	return nil
}
