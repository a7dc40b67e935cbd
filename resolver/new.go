package resolver

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/toolhost/toolhost/resolver/config"
)

// statEvery is how often Call checks, at most, whether a binary was rebuilt.
const statEvery = time.Second

// New resolves cfg into a catalog. Problems with single entries (a binary
// that is missing or does not describe itself, a tool the binary does not
// offer, a name produced twice, a definition LLM providers would reject) go
// to [Catalog.Report] and never hide the other tools: New fails only when
// ctx is done. A nil cfg gives an empty catalog, to which tools can be added
// with [Catalog.Register].
func New(ctx context.Context, cfg *config.Config, opts *Options) (*Catalog, error) {
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
		o.WorkspaceID = "w-" + uuid5(identityNamespace, []byte("workspace:"+o.Root))[:8]
	}
	if o.ConversationID == "" {
		o.ConversationID = "s-" + uuid5(identityNamespace, []byte("conversation:"+o.Root+":"+strconv.Itoa(os.Getpid())+":"+time.Now().String()))[:8]
	}
	c := &Catalog{
		root:           o.Root,
		workspaceID:    o.WorkspaceID,
		conversationID: o.ConversationID,
		concurrency:    o.Concurrency,
		progress:       o.Progress,
		plan:           newPlan(cfg),
		schemas:        &sessionCache{},
		disk:           newDiskCache(o.CacheDir),
		statEvery:      statEvery,
		retryBase:      retryBase,
		tools:          map[string]*entry{},
		pools:          &pools{size: o.PoolSize, idle: o.PoolIdle},
	}
	c.categories = c.plan.categories
	c.persist = newPersistence(o.CacheDir, o.Root, cfg)
	if l, ok := c.load(); ok {
		c.install(l)
		return c, nil
	}
	if _, err := c.rebuild(ctx); err != nil {
		return nil, err
	}
	return c, nil
}
