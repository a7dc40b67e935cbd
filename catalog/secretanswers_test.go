package catalog

import (
	"fmt"
	"testing"

	"github.com/toolhost/toolhost/tool"
)

// TestSecretQuestions: only questions asked as Secret make their answers
// secret, for the tool that asked them, and the catalog remembers at most
// maxSecretQuestions of them.
func TestSecretQuestions(t *testing.T) {
	var s secretQuestions
	s.note("login", []tool.Question{
		{ID: "password", AnswerType: tool.Secret},
		{ID: "user", AnswerType: tool.AnswerType{Kind: tool.AnswerText}},
	})
	answers := map[string]any{"password": "pw", "user": "ada", "other": "x"}
	if got := s.values("login", answers); len(got) != 1 || got[0] != "pw" {
		t.Errorf("values(login) = %q, want [pw]", got)
	}
	if got := s.values("other-tool", answers); got != nil {
		t.Errorf("values(other-tool) = %q, want none", got)
	}
	if got := s.values("login", map[string]any{"password": ""}); got != nil {
		t.Errorf("an empty answer = %q, want none", got)
	}
	for i := range maxSecretQuestions + 10 {
		s.note("flood", []tool.Question{{ID: fmt.Sprint(i), AnswerType: tool.Secret}})
	}
	if n := len(s.ids); n != maxSecretQuestions {
		t.Errorf("%d pairs remembered, want %d", n, maxSecretQuestions)
	}
	if got := s.values("login", answers); len(got) != 1 {
		t.Errorf("values(login) after the flood = %q, want [pw]", got)
	}
}
