package resolver

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
)

// New resolves cfg into a catalog. Problems with single entries (a binary
// that is missing or does not describe itself, a name produced twice, a
// definition LLM providers would reject) go to [Catalog.Report] and never
// hide the other tools; New itself fails only when nothing can be served at
// all (bad options) or ctx is done. A nil cfg gives an empty catalog, to
// which tools can be added with [Catalog.Register].
// Until resolver/config lands, cfg is typed any (callers pass a *config.Config).
func New(ctx context.Context, cfg any, opts *Options) (*Catalog, error) {
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
	if o.WorkspaceID == "" {
		o.WorkspaceID = "w-" + uuid5(identityNamespace, []byte("workspace:"+o.Root))[:8]
	}
	if o.ConversationID == "" {
		o.ConversationID = "s-" + uuid5(identityNamespace, []byte("conversation:"+o.Root+":"+strconv.Itoa(os.Getpid())))[:8]
	}
	c := &Catalog{
		root:           o.Root,
		workspaceID:    o.WorkspaceID,
		conversationID: o.ConversationID,
		cacheDir:       o.CacheDir,
		concurrency:    o.Concurrency,
		progress:       o.Progress,
		tools:          map[string]*entry{},
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return c, nil
}
