//go:build !jsonlib

package mcpserver

import "github.com/modelcontextprotocol/go-sdk/jsonrpc"

// Without the tag jsonlib (every ordinary build), screenLine checks and
// splits a line with encoding/json. See jsonlib_on.go.

func fastScreen([]byte) (jsonrpc.Message, bool) { return nil, false }
