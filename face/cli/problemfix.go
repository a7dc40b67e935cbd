package cli

import (
	"errors"

	"github.com/toolhost/toolhost/internal/source/mcp"
	"github.com/toolhost/toolhost/resolver"
)

// problemFix is what the user can do about p: its Fix, else the fix of
// the MCP server error it wraps (a configured server that could not be
// started or listed), which the catalog's problem does not carry.
func problemFix(p resolver.Problem) string {
	if p.Fix != "" {
		return p.Fix
	}
	var me *mcp.Error
	if errors.As(p.Err, &me) {
		return me.Fix
	}
	return ""
}

// errFix is what the user can do about err: the fix the catalog gives
// ([resolver.FixOf]), else that of an MCP server error in its chain (a
// call of a configured server's tool that could not start it).
func errFix(err error) string {
	if fix := resolver.FixOf(err); fix != "" {
		return fix
	}
	var me *mcp.Error
	if errors.As(err, &me) {
		return me.Fix
	}
	return ""
}
