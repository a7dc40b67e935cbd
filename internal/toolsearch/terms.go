package toolsearch

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"
)

// terms appends to out the terms of text. Text is cut at anything not a
// letter or a digit and at camelCase humps. Terms are lowercased and
// stemmed.
func terms(text string, out []string) []string {
	eachTerm(text, nil, func(t []byte) { out = append(out, string(t)) })
	return out
}

// eachTerm calls fn with each term of text (see terms). The term is in a
// buffer that the next term reuses, so fn must copy what it keeps. buf is
// that buffer's storage, returned for the next call.
func eachTerm(text string, buf []byte, fn func(term []byte)) []byte {
	word := buf[:0]
	flush := func() {
		if len(word) > 0 {
			fn(stemBytes(word))
			word = word[:0]
		}
	}
	var prev rune
	for i, r := range text {
		if r < utf8.RuneSelf { // ASCII: the common case, without unicode's tables
			switch {
			case 'a' <= r && r <= 'z' || '0' <= r && r <= '9':
				word = append(word, byte(r))
			case 'A' <= r && r <= 'Z':
				if len(word) > 0 && hump(prev, text[i+1:]) {
					flush()
				}
				word = append(word, byte(r)+'a'-'A')
			default:
				flush()
				r = 0
			}
			prev = r
			continue
		}
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush()
			prev = 0
			continue
		}
		if unicode.IsUpper(r) && len(word) > 0 && hump(prev, text[i+utf8.RuneLen(r):]) {
			flush()
		}
		word = utf8.AppendRune(word, unicode.ToLower(r))
		prev = r
	}
	flush()
	return word
}

// hump reports whether a capital letter after prev, followed by rest,
// starts a new word. It does after a lower case letter or a digit
// (readFile). It does as the last capital of a run before a lower case
// letter (HTTPServer).
func hump(prev rune, rest string) bool {
	next, _ := utf8.DecodeRuneInString(rest)
	return unicode.IsLower(prev) || unicode.IsDigit(prev) || (unicode.IsUpper(prev) && unicode.IsLower(next))
}

// queryTerms returns the terms of a query, at most [MaxTerms]. It leaves
// out the common English words unless nothing else is left.
func queryTerms(text string) []string {
	all := terms(text, nil)
	if len(all) > MaxTerms {
		all = all[:MaxTerms]
	}
	kept := make([]string, 0, len(all))
	for _, t := range all {
		if !stopWords[t] {
			kept = append(kept, t)
		}
	}
	if len(kept) == 0 {
		return all
	}
	return kept
}

// stopWords are the words of a query that say nothing about a tool. They
// are spelled as stem leaves them.
var stopWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields("a an the of to for in on at by with from into onto and or not no is are be been was were it its this that these those " +
		"as if then than so i me my we our you your he she they them do does did can could should would will shall may might must " +
		"how what which who whom where when why some any all each every tool tools") {
		stopWords[stem(w)] = true
	}
}

// stem cuts an ASCII word to a light stem, so that the forms of a word
// meet. It cuts plural s, es and ies. Then it cuts -ing and -ed when a
// vowel is left before them. Then it cuts a final e. It is not Porter's
// stemmer. It is cheap, and the prefix match mostly covers what it
// conflates anyway.
func stem(w string) string { return string(stemBytes([]byte(w))) }

// stemBytes is stem in place. It returns a prefix of w, whose bytes it may
// change.
func stemBytes(w []byte) []byte {
	if len(w) <= 3 {
		return w
	}
	for _, c := range w {
		if c < 'a' || c > 'z' {
			return w
		}
	}
	has := func(suffix string) bool { return bytes.HasSuffix(w, []byte(suffix)) }
	switch {
	case has("ies") && len(w) > 4:
		w = append(w[:len(w)-3], 'y')
	case has("sses"), has("ches"), has("shes"), has("xes"), has("zes"):
		w = w[:len(w)-2]
	case has("s") && !has("ss") && !has("us") && !has("is"):
		w = w[:len(w)-1]
	}
	switch {
	case has("ing") && len(w) > 5 && hasVowel(w[:len(w)-3]):
		w = undouble(w[:len(w)-3])
	case has("ed") && !has("eed") && len(w) > 4 && hasVowel(w[:len(w)-2]):
		w = undouble(w[:len(w)-2])
	}
	if has("e") && len(w) > 4 {
		w = w[:len(w)-1]
	}
	return w
}

func hasVowel(s []byte) bool { return bytes.ContainsAny(s, "aeiouy") }

// undouble drops the last letter of a doubled consonant other than l, s
// and z. "runn" becomes "run", and "pull" stays.
func undouble(w []byte) []byte {
	n := len(w)
	if n >= 2 && w[n-1] == w[n-2] && !strings.ContainsRune("aeioulsz", rune(w[n-1])) {
		return w[:n-1]
	}
	return w
}
