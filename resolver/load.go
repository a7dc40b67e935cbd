package resolver

import (
	"context"
	"errors"
	"slices"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/config/trust"
)

// Load reads the configuration as [config.Load] does and resolves it as
// [New]. A file or entry with errors, or a workspace not trusted yet, is
// left out and reported first in [Catalog.Report]. The rest is served.
// Load fails only when no configuration can be read at all (an explicit
// file that does not exist) or when ctx is done.
func Load(ctx context.Context, load *config.LoadOptions, opts *Options) (*Catalog, error) {
	cfg, err := config.Load(load)
	if cfg == nil {
		return nil, err
	}
	var problems config.Problems
	if err != nil && !errors.As(err, &problems) {
		return nil, err
	}
	c, err := New(ctx, cfg, opts)
	if err != nil {
		return nil, err
	}
	for _, p := range problems {
		c.loadProblems = append(c.loadProblems, loadProblem(p))
	}
	return c, nil
}

// Report returns the problems of the configuration's files that [Load]
// left out, then those of the catalog's sources ([catalog.Catalog.Report]).
// It is never nil.
func (c *Catalog) Report() *catalog.Report {
	r := c.Catalog.Report()
	if len(c.loadProblems) > 0 {
		r.Problems = append(slices.Clone(c.loadProblems), r.Problems...)
	}
	return r
}

// loadProblem is a problem of a configuration file as a catalog problem:
// its place is the file:line, its cause the text after it.
func loadProblem(e *config.Error) catalog.Problem {
	p := catalog.Problem{Place: e.Pos.String(), Err: fileError{e}}
	if errors.Is(e, trust.ErrUntrusted) {
		p.Fix = "review the files, then run toolhost trust"
	}
	return p
}

// fileError is a [config.Error] without its position, which the problem
// holding it shows; errors.Is and errors.As see the error itself.
type fileError struct{ e *config.Error }

func (f fileError) Error() string { return f.e.Msg }
func (f fileError) Unwrap() error { return f.e }
