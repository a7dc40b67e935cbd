package resolver

import (
	"context"
	"errors"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/invoke"
	"github.com/toolhost/toolhost/tool"
)

// The vocabulary a catalog and its sources share lives in package catalog;
// these names keep embedders' paths short (resolver.Tool, resolver.Problem,
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
// (see there); callers test them with errors.Is.
var (
	ErrUnknownTool    = catalog.ErrUnknownTool
	ErrInvalidName    = catalog.ErrInvalidName
	ErrDuplicate      = catalog.ErrDuplicate
	ErrNotObject      = catalog.ErrNotObject
	ErrNotDynamic     = catalog.ErrNotDynamic
	ErrNotFound       = catalog.ErrNotFound
	ErrNotExecutable  = catalog.ErrNotExecutable
	ErrExit           = catalog.ErrExit
	ErrNotJSON        = catalog.ErrNotJSON
	ErrProtocol       = catalog.ErrProtocol
	ErrNotSchema      = catalog.ErrNotSchema
	ErrTimeout        = catalog.ErrTimeout
	ErrOutputTooLarge = catalog.ErrOutputTooLarge
	ErrToolNotOffered = catalog.ErrToolNotOffered
)

func cloneMap(m map[string]any) map[string]any { return catalog.CloneMap(m) }

func cloneValue(v any) any { return catalog.CloneValue(v) }

// newError wraps a failure of a binary for the entry name: the fix is fix
// when given, else the one the spawner found for the exact cause.
func newError(name, command string, action tool.Action, cause error, fix string) *Error {
	if fix == "" {
		var ierr *invoke.Error
		if errors.As(cause, &ierr) {
			fix = ierr.Fix
		}
	}
	return &Error{Tool: name, Command: command, Action: action, Err: cause, Fix: fix}
}

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

// compile returns the compiled schema, from the binaries' memo when it
// was compiled before.
func (c *binaries) compile(s map[string]any) (*catalog.ArgSchema, error) {
	return c.compiled.Compile(s)
}

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
