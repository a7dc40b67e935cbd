package sandbox

import (
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// expandTTL is how long an expansion of rules is reused. The probes of a
// cold listing, one per binary, then read the split directories once.
const expandTTL = time.Second

// expansions are expand's recent answers, by their rules.
var expansions struct {
	sync.Mutex
	m map[string]expansion
}

type expansion struct {
	at     time.Time
	grants []PathGrant
}

// expandCached is [expand], answered from an expansion of the same rules
// made within expandTTL. An entry created in a split directory meanwhile
// is not covered, as it is not once the plan is made.
func expandCached(rules map[string]uint64) []PathGrant {
	var b strings.Builder
	for _, p := range slices.Sorted(maps.Keys(rules)) {
		b.WriteString(p)
		b.WriteByte(0)
		b.WriteString(strconv.FormatUint(rules[p], 16))
		b.WriteByte(0)
	}
	key := b.String()
	now := time.Now()
	expansions.Lock()
	e, ok := expansions.m[key]
	expansions.Unlock()
	if ok && now.Sub(e.at) < expandTTL {
		return slices.Clone(e.grants)
	}
	grants := expand(rules)
	expansions.Lock()
	defer expansions.Unlock()
	if expansions.m == nil {
		expansions.m = map[string]expansion{}
	}
	maps.DeleteFunc(expansions.m, func(_ string, x expansion) bool { return now.Sub(x.at) >= expandTTL })
	expansions.m[key] = expansion{at: now, grants: grants}
	return slices.Clone(grants)
}
