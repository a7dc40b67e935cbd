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

// QueryError is an error of [DecodeQuery]: what is wrong, and what to
// send instead.
type QueryError struct {
	Problem string
	Fix     string
}

func (e *QueryError) Error() string { return ErrQuery.Error() + ": " + e.Problem }

// Unwrap returns [ErrQuery].
func (e *QueryError) Unwrap() error { return ErrQuery }

// DecodeQuery reads a query from the arguments of a search. They are a
// JSON object {"query": "…", "limit": N}. limit is optional, an integer
// from 1 to [MaxLimit]. An error is a [*QueryError], which wraps
// [ErrQuery] and says what to send instead.
func DecodeQuery(data []byte) (Query, error) {
	bad := func(problem, fix string) (Query, error) {
		return Query{}, &QueryError{Problem: problem, Fix: fix}
	}
	data = bytes.TrimSpace(data)
	if len(data) == 0 || string(data) == "null" {
		return bad("no arguments", `send {"query": "what the tool should do"}`)
	}
	if err := dupkey.Check(data); err != nil {
		return bad(err.Error(), "send each argument once")
	}
	var args map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&args); err != nil || dec.More() || args == nil {
		return bad("the arguments are not one JSON object", `send {"query": "what the tool should do", "limit": 10}`)
	}
	var q Query
	for _, key := range slices.Sorted(maps.Keys(args)) { // the first bad argument by name: the same error every time
		raw := args[key]
		switch key {
		case "query":
			if err := json.Unmarshal(raw, &q.Text); err != nil {
				return bad(`argument "query" is not a string`, "send the words to search for as one string")
			}
		case "limit":
			n, err := strconv.Atoi(string(raw))
			if err != nil || n < 1 || n > MaxLimit {
				return bad(fmt.Sprintf(`argument "limit" is %s`, clip(string(raw))), fmt.Sprintf("send an integer from 1 to %d, or leave it out for %d", MaxLimit, DefaultLimit))
			}
			q.Limit = n
		default:
			return bad(fmt.Sprintf("unknown argument %q", clip(key)), `the arguments are "query" and "limit"`)
		}
	}
	switch {
	case strings.TrimSpace(q.Text) == "":
		return bad(`argument "query" is missing or empty`, `send the words to search for, such as "read a file"`)
	case len(q.Text) > MaxQueryLen:
		return bad(fmt.Sprintf(`argument "query" is %d bytes long, more than %d`, len(q.Text), MaxQueryLen), "send a few words")
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
