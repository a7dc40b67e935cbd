package cli

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolhost/toolhost/tool"
)

// FuzzParseArguments: whatever a user types as --args and key=value pairs,
// parsing returns arguments or an error, never panics, and every accepted
// value is JSON (what the catalog then validates).
func FuzzParseArguments(f *testing.F) {
	f.Add(`{"a":1}`, "name=Ada", "n=3")
	f.Add(``, "list=a,b", `obj={"k":[1,2]}`)
	f.Add(`null`, "flag=yes", "x=")
	f.Add(`[1]`, "=v", "n=1e400")
	params := map[string]*tool.Parameter{
		"name": {Type: tool.Types{"string"}},
		"n":    {Type: tool.Types{"integer"}},
		"x":    {Type: tool.Types{"number"}},
		"flag": {Type: tool.Types{"boolean"}},
		"list": {Type: tool.Types{"array"}, Items: &tool.Parameter{Type: tool.Types{"string"}}},
		"obj":  {Type: tool.Types{"object"}},
		"any":  {Type: tool.Types{"string", "null"}},
	}
	f.Fuzz(func(t *testing.T, argsJSON, pair1, pair2 string) {
		args, err := parseArguments(argsJSON, []string{pair1, pair2}, params)
		if err != nil {
			return
		}
		if _, err := json.Marshal(args); err != nil {
			t.Fatalf("parseArguments(%q, %q, %q) = %v, not JSON: %v", argsJSON, pair1, pair2, args, err)
		}
	})
}

// FuzzParseAnswer: any --answer text is either a valid answer to the
// question or an error.
func FuzzParseAnswer(f *testing.F) {
	f.Add("yes", 0)
	f.Add("2", 1)
	f.Add("free text", 2)
	questions := []tool.Question{
		{ID: "b", AnswerType: tool.Boolean},
		{ID: "s", AnswerType: tool.Select("a", "b", "c")},
		{ID: "t", AnswerType: tool.Text},
	}
	f.Fuzz(func(t *testing.T, s string, k int) {
		q := questions[(k%len(questions)+len(questions))%len(questions)]
		a, err := parseAnswer(s, q)
		if err != nil {
			return
		}
		if err := q.Check(a); err != nil {
			t.Fatalf("parseAnswer(%q) for %s = %v, which the question rejects: %v", s, q.ID, a, err)
		}
	})
}

// FuzzWrapText: whatever a tool's text holds, describe's wrapping gives
// lines of at most n runes that hold its words, in order, and nothing else.
func FuzzWrapText(f *testing.F) {
	f.Add("Greet someone by name. Politely.", 10)
	f.Add("averyveryverylongwordthatneedscutting and more", 7)
	f.Add("\t\n  ", 3)
	f.Fuzz(func(t *testing.T, s string, n int) {
		if n < 1 || n > 200 || !utf8.ValidString(s) {
			return // describe wraps text escaped for the terminal, or valid text
		}
		lines := wrapText(s, n)
		for _, l := range lines {
			if utf8.RuneCountInString(l) > n {
				t.Errorf("wrapText(%q, %d): line %q is longer", s, n, l)
			}
		}
		if got, want := strings.ReplaceAll(strings.Join(lines, ""), " ", ""), strings.Join(strings.Fields(s), ""); got != want {
			t.Errorf("wrapText(%q, %d) = %q: the words changed", s, n, lines)
		}
	})
}
