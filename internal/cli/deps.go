package cli

// Temporary: the calls into packages that have not landed yet
// (resolver/config, internal/invoke, parts of resolver) go through these
// functions, so the rest of the package builds and tests today.

import (
	"context"
	"errors"

	"github.com/toolhost/toolhost/resolver/config"
	"github.com/toolhost/toolhost/tool"
)

var errNotYet = errors.New("not available yet")

type configT = *config.Config

func loadConfigFiles(dir string, files []string) (configT, error) {
	return config.Load(&config.LoadOptions{Dir: dir, Files: files})
}

func defaultCacheDir() string { return "" }

func clearCache(dir string) error { return errNotYet }

func askSchema(ctx context.Context, argv []string, root string) (*tool.SchemaResponse, error) {
	return nil, errNotYet
}

func splitCommand(s string) ([]string, error) { return config.SplitWords(s) }
