package toolsearch

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolhost/toolhost/internal/dupkey"
)

// Bounds of a query.
const (
	// DefaultLimit is the number of hits of a query without a limit.
	DefaultLimit = 10
	// MaxLimit is the largest limit a query may ask for.
	MaxLimit = 50
	// MaxQueryLen bounds a query's text, in bytes.
	MaxQueryLen = 1000
	// MaxTerms bounds the terms of a query that count. The rest are
	// ignored.
	MaxTerms = 32
)

// Query is a search. It has free text, and the most hits wanted, 0 for
// [DefaultLimit].
type Query struct {
	Text  string
	Limit int
}

// ErrQuery is the cause of every error of [DecodeQuery].
var ErrQuery = errors.New("invalid search")

// DecodeQuery reads a query from the arguments of a search. They are a
// JSON object {"query": "…", "limit": N}. limit is optional, an integer
// from 1 to [MaxLimit]. An error wraps [ErrQuery] and says what to send
// instead.
func DecodeQuery(data []byte) (Query, error) {
	bad := func(format string, a ...any) (Query, error) {
		return Query{}, fmt.Errorf("%w: %s", ErrQuery, fmt.Sprintf(format, a...))
	}
	data = bytes.TrimSpace(data)
	if len(data) == 0 || string(data) == "null" {
		return bad(`no arguments: send {"query": "what the tool should do"}`)
	}
	if err := dupkey.Check(data); err != nil {
		return bad("%v: send each argument once", err)
	}
	var args map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&args); err != nil || dec.More() || args == nil {
		return bad(`the arguments are not one JSON object: send {"query": "what the tool should do", "limit": 10}`)
	}
	var q Query
	for _, key := range slices.Sorted(maps.Keys(args)) { // the first bad argument by name: the same error every time
		raw := args[key]
		switch key {
		case "query":
			if err := json.Unmarshal(raw, &q.Text); err != nil {
				return bad(`argument "query" is not a string: send the words to search for as one string`)
			}
		case "limit":
			n, err := strconv.Atoi(string(raw))
			if err != nil || n < 1 || n > MaxLimit {
				return bad(`argument "limit" is %s: send an integer from 1 to %d, or leave it out for %d`, clip(string(raw)), MaxLimit, DefaultLimit)
			}
			q.Limit = n
		default:
			return bad(`unknown argument %q: the arguments are "query" and "limit"`, clip(key))
		}
	}
	switch {
	case strings.TrimSpace(q.Text) == "":
		return bad(`argument "query" is missing or empty: send the words to search for, such as "read a file"`)
	case len(q.Text) > MaxQueryLen:
		return bad(`argument "query" is %d bytes long, more than %d: send a few words`, len(q.Text), MaxQueryLen)
	}
	return q, nil
}

// clip shortens a value quoted in an error.
func clip(s string) string {
	const max = 40
	if len(s) <= max {
		return s
	}
	for i := max; i > 0; i-- {
		if utf8.RuneStart(s[i]) {
			return s[:i] + "…"
		}
	}
	return s[:max] + "…"
}
