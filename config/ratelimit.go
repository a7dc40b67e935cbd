package config

import "math"

// rateLimit decodes rate_limit_per_minute: a whole number of calls, 0 for
// no limit. A TOML integer is an int64. The limit is kept as an int, so
// it stops at math.MaxInt32 (a limit far above any call rate).
func (d *decoder) rateLimit(path []string, v any) *int {
	n, ok := v.(int64)
	if !ok {
		d.wrongType(path, "a whole number of calls per minute (0 for no limit)", v)
		return nil
	}
	if n < 0 || n > math.MaxInt32 {
		d.fail(path, ErrInvalid, "%s: must be a number of calls per minute from 1 to %d, or 0 for no limit; got %d", dotted(path), math.MaxInt32, n)
		return nil
	}
	c := int(n)
	return &c
}

// applyRateLimit gives e [defaults]' rate_limit_per_minute when e sets
// none: a tool of an MCP server too, since the limit counts calls
// wherever the tool runs.
func (d *Defaults) applyRateLimit(e *Entry) {
	if e.RateLimit == nil && d.RateLimit != nil {
		n := *d.RateLimit
		e.RateLimit = &n
		e.Pos["rate_limit_per_minute"] = d.Pos["rate_limit_per_minute"]
	}
}
