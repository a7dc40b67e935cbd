package toolsearch

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// terms appends to out the terms of text: cut at anything not a letter or
// a digit and at camelCase humps, lowercased and stemmed.
func terms(text string, out []string) []string {
	var word []rune
	flush := func() {
		if len(word) > 0 {
			out = append(out, stem(strings.ToLower(string(word))))
			word = word[:0]
		}
	}
	var prev rune
	for i, r := range text {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush()
			prev = 0
			continue
		}
		if unicode.IsUpper(r) && len(word) > 0 {
			next, _ := utf8.DecodeRuneInString(text[i+utf8.RuneLen(r):])
			// readFile: a hump after a lower case letter or a digit;
			// HTTPServer: the last capital of a run before a lower case letter
			if unicode.IsLower(prev) || unicode.IsDigit(prev) || (unicode.IsUpper(prev) && unicode.IsLower(next)) {
				flush()
			}
		}
		word = append(word, r)
		prev = r
	}
	flush()
	return out
}

// queryTerms returns the terms of a query, at most [MaxTerms], without
// the common English words unless nothing else is left.
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

// stopWords are the words of a query that say nothing about a tool (as
// stem leaves them).
var stopWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields("a an the of to for in on at by with from into onto and or not no is are be been was were it its this that these those " +
		"as if then than so i me my we our you your he she they them do does did can could should would will shall may might must " +
		"how what which who whom where when why some any all each every tool tools") {
		stopWords[stem(w)] = true
	}
}

// stem cuts an ASCII word to a light stem, so that the forms of a word
// meet: plural s, es and ies, then -ing and -ed (when a vowel is left
// before them), then a final e. It is not Porter's stemmer: it is cheap,
// and what it conflates the prefix match mostly covers anyway.
func stem(w string) string {
	if len(w) <= 3 {
		return w
	}
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return w
		}
	}
	switch {
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		w = w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"), strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "shes"),
		strings.HasSuffix(w, "xes"), strings.HasSuffix(w, "zes"):
		w = w[:len(w)-2]
	case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		w = w[:len(w)-1]
	}
	switch {
	case strings.HasSuffix(w, "ing") && len(w) > 5 && hasVowel(w[:len(w)-3]):
		w = undouble(w[:len(w)-3])
	case strings.HasSuffix(w, "ed") && !strings.HasSuffix(w, "eed") && len(w) > 4 && hasVowel(w[:len(w)-2]):
		w = undouble(w[:len(w)-2])
	}
	if strings.HasSuffix(w, "e") && len(w) > 4 {
		w = w[:len(w)-1]
	}
	return w
}

func hasVowel(s string) bool { return strings.ContainsAny(s, "aeiouy") }

// undouble drops the last letter of a doubled consonant other than l, s
// and z: "runn" → "run", "pull" stays.
func undouble(w string) string {
	n := len(w)
	if n >= 2 && w[n-1] == w[n-2] && !strings.ContainsRune("aeioulsz", rune(w[n-1])) {
		return w[:n-1]
	}
	return w
}
