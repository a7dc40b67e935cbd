//go:build !jsonlib

package catalog

import "github.com/toolhost/toolhost/internal/plainjson"

// Without the tag jsonlib (every ordinary build), DecodeArguments takes
// package plainjson's one pass. See jsonlib_on.go.

func fastArguments(data []byte) (map[string]any, bool) { return plainjson.DecodeObject(data) }
