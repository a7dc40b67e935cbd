package cli

import (
	"errors"
	"github.com/toolhost/toolhost/internal/pin"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/resolver"
)

// loadConfig reads the configuration layers named by the global flags, for
// the workspace at root (see [findRoot]). Files and entries with errors are
// left out, and kept in a.cfgProblems for the one-line note and `check`.
// Only a configuration that cannot be read at all is an error.
func (a *app) loadConfig(c *cli.Context, root string) (*config.Config, error) {
	cfg, err := config.Load(a.loadOptions(c, root))
	if cfg == nil {
		return nil, &exitError{code: ExitFailure, err: err}
	}
	a.cfgProblems = nil
	if !errors.As(err, &a.cfgProblems) && err != nil {
		return nil, &exitError{code: ExitFailure, err: err}
	}
	a.cfgProblems, a.untrusted = splitUntrusted(a.cfgProblems)
	a.cfgFiles = cfg.Files
	if k := cfg.Defaults.KeepOutput; k != nil {
		a.keepOutput = k.Duration
	}
	return cfg, nil
}

// catalog loads the configuration and resolves it, showing progress on a
// terminal. It prints nothing else: the commands call [app.note] once they
// know their own tool is fine, and `check` prints every problem.
func (a *app) catalog(c *cli.Context) (*resolver.Catalog, error) {
	return a.toolCatalog(c, "")
}

// toolCatalog is [app.catalog] for a command that uses the one tool name
// (call, describe, format): a persisted resolution that has it is served once
// that tool's binary is checked, without checking the others
// ([resolver.Options.Only]). An empty name checks them all.
func (a *app) toolCatalog(c *cli.Context, name string) (*resolver.Catalog, error) {
	return a.openCatalog(c, name, false)
}

// listCatalog is [app.catalog] for a command that lists the tools and
// reads a tool's detail only by exception, as list without --schemas.
// A persisted resolution is read without the details
// ([resolver.Options.ListOnly]).
func (a *app) listCatalog(c *cli.Context) (*resolver.Catalog, error) {
	return a.openCatalog(c, "", true)
}

// openCatalog is [app.toolCatalog], with [resolver.Options.ListOnly] set
// to listOnly.
func (a *app) openCatalog(c *cli.Context, name string, listOnly bool) (*resolver.Catalog, error) {
	if a.client != nil {
		return a.clientCatalog(c, name)
	}
	root, err := findRoot(c)
	if err != nil {
		return nil, &exitError{code: ExitFailure, err: err}
	}
	a.root = root
	a.auditLog.SetWorkspace(root) // one log holds every workspace's calls
	a.noteTool = name             // the one line of note is about this tool only
	opts := &resolver.Options{Root: root, PoolSize: -1, Only: name, ListOnly: listOnly, Audit: a.auditLog, PinDir: pin.DefaultDir(),
		RetrySources: c.Command.Name == "check"} // check tries a server whose failed start backs off
	if a.pool {
		opts.PoolSize = poolSize(a.opts.Getenv("TOOLHOST_POOL_SIZE"))
	}
	if !c.Bool("no-cache") {
		opts.CacheDir = resolver.DefaultCacheDir()
	}
	var p *progress
	if isTerminal(a.stderr) && a.opts.Getenv("TERM") != "dumb" { // a dumb terminal shows escape codes as they are
		p = startProgress(a.stderr, a.opts.ProgressDelay)
		opts.Progress = p.update
	}
	var cat *resolver.Catalog
	if opts.CacheDir != "" && !a.pool {
		// A one-shot command: a persisted resolution of the same
		// configuration files (same stat) is served without reading them.
		// Only trusted files are listed: an untrusted workspace's
		// persisted resolution is never served.
		files, lerr := config.Layers(a.loadOptions(c, root))
		var untrusted config.Problems
		if lerr != nil && !errors.As(lerr, &untrusted) {
			return nil, &exitError{code: ExitFailure, err: lerr}
		}
		a.cfgFiles, a.cfgProblems = files, nil
		_, a.untrusted = splitUntrusted(untrusted)
		cat, err = resolver.Open(c.Context, files, func() (*config.Config, error) {
			cfg, err := a.loadConfig(c, root)
			if err != nil {
				return nil, err
			}
			if len(a.cfgProblems) > 0 {
				return cfg, a.cfgProblems
			}
			return cfg, nil
		}, opts)
	} else {
		var cfg *config.Config
		if cfg, err = a.loadConfig(c, root); err != nil {
			p.stop()
			return nil, err
		}
		cat, err = resolver.New(c.Context, cfg, opts)
	}
	p.stop()
	if err != nil {
		var ee *exitError
		if errors.As(err, &ee) {
			return nil, err // from loadConfig
		}
		return nil, &exitError{code: ExitFailure, err: err}
	}
	a.opened = append(a.opened, cat)
	if a.opts.Setup != nil {
		if err := a.opts.Setup(c.Context, cat); err != nil {
			return nil, &exitError{code: ExitFailure, err: err}
		}
	}
	return cat, nil
}

// poolSize reads TOOLHOST_POOL_SIZE: the long-lived processes `serve`
// keeps per binary. "" or an invalid value means the default (2). 0 means
// none (every call one-shot).
func poolSize(v string) int {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	switch {
	case err != nil || n < 0:
		return 0 // resolver.DefaultPoolSize
	case n == 0:
		return -1
	}
	return n
}

// note writes one line on stderr when something was left out or looks
// wrong, however many problems there are, such as
//
//	toolhost: 2 entries could not be resolved (run toolhost check for details)
//
// The tools that resolved are served anyway; `toolhost check` lists every
// problem with its fix. For a command that uses one tool (call, describe,
// format: [app.toolCatalog] with a name), the line is about that tool only
// (note.go). An untrusted workspace is said first, in a line of its own.
func (a *app) note(cat *resolver.Catalog) {
	if a.client != nil {
		a.clientNote(cat)
		return
	}
	a.noteUntrusted()
	a.noteFor(cat, a.noteTool)
}
