package resolver

import (
	"context"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/internal/source/binary"
	"github.com/toolhost/toolhost/tool"
)

// The vocabulary a catalog and its sources share lives in package catalog.
// These names keep embedders' paths short (resolver.Tool, resolver.Problem,
// resolver.ErrUnknownTool…): each is the catalog's own, not a copy.

// Definition is [catalog.Definition]: a tool as tools/list serves it.
type Definition = catalog.Definition

// Icon is [catalog.Icon]: an image a client may show for a tool.
type Icon = catalog.Icon

// Tool is [catalog.Tool]: the full detail of a resolved tool.
type Tool = catalog.Tool

// Category is [catalog.Category]: a category that tools name.
type Category = catalog.Category

// RunMode is [catalog.RunMode]: whether a tool's calls run.
type RunMode = catalog.RunMode

// The run modes ([catalog.RunUnattended], [catalog.RunAsk], [catalog.RunSkip]).
const (
	RunUnattended = catalog.RunUnattended
	RunAsk        = catalog.RunAsk
	RunSkip       = catalog.RunSkip
)

// Identity is [catalog.Identity]: what identifies the set of tools served.
type Identity = catalog.Identity

// ProtocolVersion is [catalog.ProtocolVersion], the identity's protocol_version.
const ProtocolVersion = catalog.ProtocolVersion

// IdentityOf is [catalog.IdentityOf].
func IdentityOf(defs []Definition) Identity { return catalog.IdentityOf(defs) }

// Error is [catalog.Error]: a binary that gave no usable answer.
type Error = catalog.Error

// Problem is [catalog.Problem]: one thing that went wrong while resolving.
type Problem = catalog.Problem

// Report is [catalog.Report]: the problems of a resolution.
type Report = catalog.Report

// FixOf is [catalog.FixOf]: what the user can do about err.
func FixOf(err error) string { return catalog.FixOf(err) }

// The errors of the catalog API and of binaries, as [catalog] defines them
// (see there). Callers test them with errors.Is.
var (
	ErrUnknownTool    = catalog.ErrUnknownTool
	ErrInvalidName    = catalog.ErrInvalidName
	ErrDuplicate      = catalog.ErrDuplicate
	ErrNotObject      = catalog.ErrNotObject
	ErrNotDynamic     = catalog.ErrNotDynamic
	ErrNotFound       = catalog.ErrNotFound
	ErrNotExecutable  = catalog.ErrNotExecutable
	ErrExit           = binary.ErrExit
	ErrNotJSON        = binary.ErrNotJSON
	ErrProtocol       = binary.ErrProtocol
	ErrNotSchema      = binary.ErrNotSchema
	ErrTimeout        = catalog.ErrTimeout
	ErrOutputTooLarge = catalog.ErrOutputTooLarge
	ErrToolNotOffered = binary.ErrToolNotOffered
)

// ValidationError is [catalog.ValidationError]: one problem with a call's
// arguments, naming its field.
type ValidationError = catalog.ValidationError

// ValidateArguments is [catalog.ValidateArguments]: args checked against
// an input schema as a call's are.
func ValidateArguments(schema map[string]any, args map[string]any) ([]ValidationError, error) {
	return catalog.ValidateArguments(schema, args)
}

// DecodeArguments is [catalog.DecodeArguments]: a call's arguments
// decoded from JSON, numbers kept as written.
func DecodeArguments(data []byte) (map[string]any, error) { return catalog.DecodeArguments(data) }

// The catalog's call API, named again here (each is catalog's own).

// CallOptions is [catalog.CallOptions]: what adjusts one call.
type CallOptions = catalog.CallOptions

// Approval is [catalog.Approval]: a call waiting for a person's approval.
type Approval = catalog.Approval

// Handler is [catalog.Handler]: runs a tool registered in this process.
type Handler = catalog.Handler

// Brief is [catalog.Brief]: a tool's name and one-line summary.
type Brief = catalog.Brief

// ErrNoAnswer is [catalog.ErrNoAnswer]: an Ask that cannot answer now.
var ErrNoAnswer = catalog.ErrNoAnswer

// ErrApprovalRequired is [catalog.ErrApprovalRequired]: a call that needs
// a person's approval, made where nobody can be asked.
var ErrApprovalRequired = catalog.ErrApprovalRequired

// Answers is [catalog.Answers]: the answers to a registered tool's
// earlier questions, inside its Handler.
func Answers(ctx context.Context) map[string]any { return catalog.Answers(ctx) }

// What the binaries define that embedders use, named again here (each is
// package internal/source/binary's own).

// Pool defaults: [binary.DefaultPoolSize], [binary.DefaultPoolIdle] (see
// [Options]).
const (
	DefaultPoolSize = binary.DefaultPoolSize // long-lived processes per binary
	DefaultPoolIdle = binary.DefaultPoolIdle // a process idle this long is ended
)

// DefaultTimeout is [binary.DefaultTimeout]: the per-call timeout of an
// entry that sets none, in itself or in [defaults].
const DefaultTimeout = binary.DefaultTimeout

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
// `toolhost schema -- CMD` and `toolhost add` do. Nothing is cached.
func AskSchema(ctx context.Context, command []string, root string) (*tool.SchemaResponse, error) {
	return binary.AskSchema(ctx, command, root)
}
