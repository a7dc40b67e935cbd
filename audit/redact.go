package audit

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"
)

// redacted replaces a secret in the audit log.
const redacted = "[redacted]"

// secretSuffixes are the endings of a secret-named key. They are lower
// case with "_", "-" and "." removed. api_key, GITHUB_TOKEN, clientSecret,
// x-api-key and db.password end in one. max_tokens does not.
var secretSuffixes = []string{
	"secret", "secrets", "token", "password", "passwd", "passphrase", "pwd",
	"apikey", "accesskey", "privatekey", "secretkey", "signingkey",
	"credential", "credentials", "authorization", "auth", "cookie", "bearer",
}

// secretKey reports whether an argument named key holds a secret by its
// name. Its lower-case form without "_", "-" and "." must end in one of
// these: secret, token, password, passwd, passphrase, pwd, apikey,
// accesskey, privatekey, secretkey, signingkey, credential(s),
// authorization, auth, cookie or bearer.
func secretKey(key string) bool {
	var buf [64]byte
	k := buf[:0]
	for i := 0; i < len(key); i++ {
		c := key[i]
		switch {
		case c == '_' || c == '-' || c == '.':
			continue
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		}
		k = append(k, c)
	}
	for _, s := range secretSuffixes {
		if bytes.HasSuffix(k, []byte(s)) {
			return true
		}
	}
	return false
}

// mayHoldSecretKey is a quick screen. false means no key of data can be a
// secretKey, as no byte sequence could end one. So the arguments of
// most calls are written as they came without being decoded.
func mayHoldSecretKey(data []byte) bool {
	for i := 0; i < len(data); i++ {
		if data[i] != '"' || i == 0 {
			continue
		}
		// data[i] may close a key: look at the letters before it.
		for _, s := range secretSuffixes {
			if endsFold(data[:i], s) {
				return true
			}
		}
	}
	return false
}

// endsFold reports whether b ends in s, lower-case ASCII. It ignores case
// and the separators "_", "-" and ".", as secretKey does.
func endsFold(b []byte, s string) bool {
	j := len(b)
	for i := len(s) - 1; i >= 0; i-- {
		for j > 0 && (b[j-1] == '_' || b[j-1] == '-' || b[j-1] == '.') {
			j--
		}
		if j == 0 {
			return false
		}
		j--
		c := b[j]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != s[i] {
			return false
		}
	}
	return true
}

// Redact returns args, a call's arguments as JSON, with the value of every
// secret-named key replaced by redacted. secretKey names them, at any
// depth. Every occurrence of one of the secret values inside a string is
// replaced too. The result is JSON on one line. Where something may need
// redacting it is re-encoded token by token. Keys keep their order,
// numbers go digit for digit, and strings are re-escaped. Arguments that
// are not valid JSON come back as a JSON string of their redacted text.
// When nothing needs redacting, args on one line come back unchanged,
// without being decoded.
func Redact(args []byte, secrets []string) []byte {
	return redact(nil, args, secrets)
}

// redact appends the redacted args to b.
func redact(b, args []byte, secrets []string) []byte {
	args = bytes.TrimSpace(args)
	if len(args) == 0 {
		return b
	}
	if !json.Valid(args) {
		s := string(args)
		for _, v := range secrets {
			s = strings.ReplaceAll(s, v, redacted)
		}
		return appendString(b, s)
	}
	hit := mayHoldSecretKey(args)
	if len(secrets) > 0 && bytes.IndexByte(args, '\\') >= 0 {
		hit = true // an escape may spell a secret otherwise (\u0068unter2): decode to see
	}
	for _, v := range secrets {
		if hit {
			break
		}
		hit = bytes.Contains(args, []byte(v)) || bytes.Contains(args, jsonInner(v))
	}
	if !hit {
		// A raw line break in valid JSON is whitespace between tokens. Inside a
		// string it is escaped. Without one, args fit on a line.
		if bytes.IndexByte(args, '\n') < 0 && bytes.IndexByte(args, '\r') < 0 {
			return append(b, args...)
		}
		buf := bytes.NewBuffer(b)
		_ = json.Compact(buf, args) // valid, checked above
		return buf.Bytes()
	}
	out, err := redactTokens(b, args, secrets)
	if err != nil {
		return appendString(b, redacted) // cannot happen: args are valid JSON
	}
	return out
}

// redactTokens appends args re-encoded token by token, in their order.
// The values of secret-named keys are replaced by redacted. The secrets
// are replaced inside every string, keys included.
func redactTokens(b, args []byte, secrets []string) ([]byte, error) {
	d := json.NewDecoder(bytes.NewReader(args))
	d.UseNumber()
	type level struct {
		object bool
		n      int // tokens begun at this level: keys and values alike in an object
	}
	var stack []level
	mask := false // the next value is a secret-named key's
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			return b, nil
		}
		if err != nil {
			return nil, err
		}
		if tok == json.Delim('}') || tok == json.Delim(']') {
			stack = stack[:len(stack)-1]
			b = append(b, byte(tok.(json.Delim)))
			continue
		}
		isKey := false
		if n := len(stack); n > 0 {
			top := &stack[n-1]
			switch {
			case top.object && top.n%2 == 1:
				b = append(b, ':')
			case top.n > 0:
				b = append(b, ',')
			}
			isKey = top.object && top.n%2 == 0
			top.n++
		}
		if mask {
			mask = false
			if tok == json.Delim('{') || tok == json.Delim('[') {
				for depth := 1; depth > 0; { // skip the whole value
					t, err := d.Token()
					if err != nil {
						return nil, err
					}
					switch t {
					case json.Delim('{'), json.Delim('['):
						depth++
					case json.Delim('}'), json.Delim(']'):
						depth--
					}
				}
			}
			b = appendString(b, redacted)
			continue
		}
		switch t := tok.(type) {
		case json.Delim: // { or [
			stack = append(stack, level{object: t == '{'})
			b = append(b, byte(t))
		case string:
			if isKey && secretKey(t) {
				mask = true
			}
			b = appendString(b, redactString(t, secrets))
		case json.Number:
			b = append(b, t...)
		case bool:
			b = strconv.AppendBool(b, t)
		case nil:
			b = append(b, "null"...)
		}
	}
}

// jsonInner is v as it appears inside a JSON string (escaped, no quotes).
func jsonInner(v string) []byte {
	q := appendString(nil, v)
	return q[1 : len(q)-1]
}

func redactString(v string, secrets []string) string {
	for _, s := range secrets {
		v = strings.ReplaceAll(v, s, redacted)
	}
	return v
}

// capArguments keeps the first max bytes of redacted arguments when they
// are longer. It keeps them as a JSON string, cut on a UTF-8 boundary. It
// returns the size the arguments had, or 0 when they were kept whole.
func capArguments(args []byte, max int) ([]byte, int) {
	if len(args) <= max {
		return args, 0
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(args[cut]) {
		cut--
	}
	return appendString(nil, string(args[:cut])), len(args)
}

// secretSet is the registered secret values. It is read without a lock on
// every write, and replaced whole when one is added.
type secretSet struct {
	mu   sync.Mutex // serializes adders
	list atomic.Pointer[[]string]
}

func (s *secretSet) load() []string {
	if p := s.list.Load(); p != nil {
		return *p
	}
	return nil
}

func (s *secretSet) add(values ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	old := s.load()
	next := append([]string(nil), old...)
	for _, v := range values {
		if v == "" || containsString(next, v) {
			continue
		}
		next = append(next, v)
	}
	if len(next) != len(old) {
		s.list.Store(&next)
	}
}

func containsString(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}
