package binary

import (
	"context"
	"errors"
	"github.com/toolhost/toolhost/internal/pin"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/toolhost/toolhost/audit"
	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/internal/source/binary/schemacache"
	"github.com/toolhost/toolhost/internal/telemetry"
)

// statEvery is how often Call checks, at most, whether a binary was rebuilt.
const statEvery = time.Second

// Options configures a [Source]. A nil *Options means all defaults.
type Options struct {
	// Root is the workspace root, sent to binaries as context.root and
	// used as their working directory. If empty, the current directory.
	Root string
	// WorkspaceID and ConversationID are sent to binaries. If empty,
	// stable ids are derived from Root (workspace) and from the process
	// (conversation).
	WorkspaceID, ConversationID string
	// CacheDir holds the persistent schema cache and the persisted
	// resolution. If empty, schemas are cached for the Source's lifetime
	// only.
	CacheDir string
	// Concurrency bounds the schema requests in flight. If zero, 4.
	Concurrency int
	// Progress, if set, is called while resolving with the number of
	// binaries asked so far and the number to ask.
	Progress func(done, total int)
	// PoolSize bounds the long-lived processes kept per binary that
	// declared long_lived. If zero, [DefaultPoolSize]. If negative, every
	// call is one-shot.
	PoolSize int
	// PoolIdle is how long a long-lived process may stay without calls.
	// If zero, [DefaultPoolIdle].
	PoolIdle time.Duration
	// Only names the one tool a one-shot caller is about to use: a
	// persisted resolution that has it is served with that tool alone,
	// once its binary is found unchanged (resolver.Options.Only).
	Only string
	// ListOnly tells that a one-shot caller lists the tools. It reads a
	// tool's detail only by exception, as `toolhost list` does. A persisted
	// resolution is then read without the details (resolver.Options.ListOnly).
	ListOnly bool
	// Audit, if set, is told the secrets the binaries read, to redact
	// them from the audit log.
	Audit *audit.Log
	// Pins, if set, holds back the tools of entries with pin = true whose
	// definitions differ from the accepted ones (internal/pin).
	Pins *pin.Store
}

// New returns the binaries of no configuration yet: [Source.Configure]
// or [Source.SetLoad] gives them one, [Source.Start] resolves it.
func New(opts *Options) *Source {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Root == "" {
		o.Root = getwd()
	}
	if abs, err := filepath.Abs(o.Root); err == nil {
		o.Root = abs
	}
	if o.Concurrency <= 0 {
		o.Concurrency = 4
	}
	if o.PoolSize == 0 {
		o.PoolSize = DefaultPoolSize
	}
	if o.PoolIdle <= 0 {
		o.PoolIdle = DefaultPoolIdle
	}
	if o.WorkspaceID == "" {
		o.WorkspaceID = "w-" + catalog.UUID([]byte("workspace:" + o.Root))[:8]
	}
	if o.ConversationID == "" {
		o.ConversationID = "s-" + catalog.UUID([]byte("conversation:" + o.Root + ":" + strconv.Itoa(os.Getpid()) + ":" + time.Now().String()))[:8]
	}
	c := &Source{
		root:      o.Root,
		statEvery: statEvery,
		retryBase: retryBase,
		tools:     map[string]*entry{},
		cacheDir:  o.CacheDir,
	}
	c.runner = &runner{root: o.Root, workspaceID: o.WorkspaceID, conversationID: o.ConversationID,
		pools: &pools{size: o.PoolSize, idle: o.PoolIdle}, audit: o.Audit, keyOf: c.keyOf}
	c.planner = &planner{root: o.Root, concurrency: o.Concurrency, progress: o.Progress, schemas: &schemacache.Session{},
		disk: newDiskCache(o.CacheDir), runner: c.runner, pins: o.Pins}
	c.store = &store{root: o.Root, cacheDir: o.CacheDir, only: o.Only, listOnly: o.ListOnly, stat: c.planner.statKey, host: c.runner}
	if o.PoolSize >= 0 {
		c.runner.pools.stopGauge = telemetry.ObservePools(c.runner.pools.counts)
	}
	return c
}

// Configure gives the binaries the configuration cfg (New's), nil for
// none. With a cache directory, their resolution is persisted there.
func (s *Source) Configure(cfg *config.Config) { s.setConfig(cfg, s.cacheDir, "") }

// setConfig installs cfg's plan and persistence (filesKey: see layersKey,
// "" when the configuration must be read at every start).
func (s *Source) setConfig(cfg *config.Config, cacheDir, filesKey string) {
	p := newPlan(cfg)
	if p.hasSecrets() {
		filesKey = "" // read at every start, so that each run finds its secrets' references (secrets.go)
	}
	var files []string
	if cfg != nil {
		files = cfg.Files
	}
	s.store.persist.Store(newPersistence(cacheDir, s.root, cfg, filesKey, files))
	s.plan.Store(p)
	s.mu.Lock()
	s.categories = p.categories
	s.mu.Unlock()
}

// SetLoad gives the binaries a configuration not read yet (Open's): files
// are the layers load reads. It is read when first needed: by
// [Source.ReadConfig], or when a binary of a [Persisted] resolution
// changed.
func (s *Source) SetLoad(files []string, load func() (*config.Config, error)) {
	s.loadConfig, s.store.files = load, files
	if s.cacheDir != "" {
		s.store.filesKey = layersKey(s.root, files)
	}
}

// ReadConfig reads the configuration SetLoad gave, once, and gives it to
// the binaries; persist says whether it may be served next time without
// being read (a configuration whose other sources may be kept). It
// returns the configuration, or load's error when it returned none.
func (s *Source) ReadConfig(persist func(*config.Config) bool) (*config.Config, error) {
	var err error
	var cfg *config.Config
	s.loadOnce.Do(func() {
		cfg, err = s.loadConfig()
		if cfg == nil {
			return
		}
		fk := ""
		if err == nil && slices.Equal(cfg.Files, s.store.files) && persist(cfg) {
			fk = s.store.filesKey // only a configuration without problems is served without reading it
		}
		err = nil
		s.setConfig(cfg, s.cacheDir, fk)
	})
	return cfg, err
}

// Config reads the configuration SetLoad gave, again. An error when there
// is none to read (New's binaries).
func (s *Source) Config() (*config.Config, error) {
	if s.loadConfig == nil {
		return nil, errors.New("no configuration to read")
	}
	return s.loadConfig()
}

// Start serves the binaries' persisted resolution when it is valid, else
// resolves their configuration. It fails only when ctx is done.
func (s *Source) Start(ctx context.Context) error {
	if l, ok := s.store.load(s.plan.Load()); ok {
		s.install(l)
		return nil
	}
	_, err := s.rebuild(ctx)
	return err
}

// Persisted is a persisted resolution found valid for the files SetLoad
// named ([Source.Persisted]), not served yet.
type Persisted struct{ l *loaded }

// Persisted returns the resolution persisted from the files SetLoad named
// (their stat unchanged) when it is valid, false when there is none (or
// no cache directory).
func (s *Source) Persisted() (*Persisted, bool) {
	if s.store.filesKey == "" {
		return nil, false
	}
	s.plan.Store(&plan{restored: true, groups: map[string]*group{}, groupOf: map[*config.Entry]*group{}, byKey: map[string]*config.Entry{}})
	s.store.persist.Store(newPersistence(s.cacheDir, s.root, nil, s.store.filesKey, s.store.files))
	l, ok := s.store.load(s.plan.Load())
	if !ok {
		return nil, false
	}
	return &Persisted{l}, true
}

// Has reports whether the persisted resolution has a binary tool of that
// name.
func (p *Persisted) Has(name string) bool { return p.l.tools[name] != nil }

// Install serves p, as Start would.
func (s *Source) Install(p *Persisted) { s.install(p.l) }

// fullPlan reads the configuration of binaries whose plan was restored
// from a persisted resolution, before they are resolved again.
func (s *Source) fullPlan() error {
	if !s.plan.Load().restored || s.loadConfig == nil {
		return nil
	}
	var err error
	s.loadOnce.Do(func() {
		var cfg *config.Config
		cfg, err = s.loadConfig()
		if cfg == nil {
			return
		}
		fk := ""
		if err == nil && s.cacheDir != "" {
			fk = layersKey(s.root, cfg.Files)
		}
		err = nil
		s.setConfig(cfg, s.cacheDir, fk)
	})
	if err != nil {
		return err
	}
	if s.plan.Load().restored {
		return errors.New("the configuration could not be read")
	}
	return nil
}

func getwd() string {
	wd, err := os.Getwd()
	if err != nil {
		return "."
	}
	return wd
}
