package cli

import (
	"errors"

	"github.com/toolhost/toolhost/resolver"
	"github.com/toolhost/toolhost/source/mcp"
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
