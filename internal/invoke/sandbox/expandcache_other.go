//go:build !linux

package sandbox

// expandCached is [expand]: without Landlock nothing is worth keeping.
func expandCached(rules map[string]uint64) ([]PathGrant, uint64) {
	return expand(rules), 0
}
