package resolver

import (
	"context"

	"github.com/toolhost/toolhost/internal/source/binary"
	"github.com/toolhost/toolhost/tool"
)

// The vocabulary a catalog and its sources share lives in package catalog
// (catalog.Tool, catalog.Problem, catalog.ErrUnknownTool…): use it there.
// This package names only what the binaries define that embedders use.

// The errors of a binary that gave no usable answer, beside those any
// source may give (catalog.ErrNotFound, catalog.ErrTimeout…). Each is
// package internal/source/binary's own. Callers test them with errors.Is.
var (
	ErrExit           = binary.ErrExit           // a schema request that failed, with the stderr tail
	ErrNotJSON        = binary.ErrNotJSON        // the answer to schema is not JSON
	ErrProtocol       = binary.ErrProtocol       // a binary that described itself answered run with no outcome
	ErrToolNotOffered = binary.ErrToolNotOffered // the binary does not offer the tool the entry names
)

// Pool defaults: [binary.DefaultPoolSize], [binary.DefaultPoolIdle] (see
// [Options]).
const (
	DefaultPoolSize = binary.DefaultPoolSize // long-lived processes per binary
	DefaultPoolIdle = binary.DefaultPoolIdle // a process idle this long is ended
)

// ErrSecret is [binary.ErrSecret]: a secret of the tool's environment
// could not be read when the tool was to run. Nothing ran.
var ErrSecret = binary.ErrSecret

// DefaultCacheDir is [binary.DefaultCacheDir]: the directory of the
// persistent schema cache, $XDG_CACHE_HOME/toolhost or ~/.cache/toolhost.
func DefaultCacheDir() string { return binary.DefaultCacheDir() }

// ClearCache is [binary.ClearCache]: it removes the schema answers and
// persisted resolutions stored in dir, and nothing else.
func ClearCache(dir string) error { return binary.ClearCache(dir) }

// AskSchema is [binary.AskSchema]: any command asked for its schema, as
// `toolhost schema -- CMD` does. Nothing is cached.
func AskSchema(ctx context.Context, command []string, root string) (*tool.SchemaResponse, error) {
	return binary.AskSchema(ctx, command, root)
}
