package catalog

import (
	"sync"

	"github.com/toolhost/toolhost/tool"
)

// This file keeps a tool's "Secret" answers out of what toolhost writes.
// Secret is protocol v2's answer type for a text the host never logs nor
// echoes (tool/doc.go). toolhost writes the stderr tail an error quotes,
// where the tool may print its answer as it might print a secret of its
// environment. It writes the call's audit line, whose arguments are
// redacted with the call's secret answers. The line holds no answers. The
// faces already never echo one. A terminal reads it without echo, an MCP
// elicitation's refusal does not quote it, and the multi round-trip state
// is sealed.
//
// An answer is secret when the tool asked its question as "Secret". A
// face that answers in a later request (MCP multi round-trip, the HTTP
// API) sends the answer up front, with no question beside it. So the
// catalog remembers which (tool, question id) pairs were asked as Secret
// ([secretQuestions]) and treats their up-front answers as secret too.
// Each round's secret answers go to the source in [CallRequest.Secrets].

// maxSecretQuestions bounds the pairs a catalog remembers; once full, a
// new pair is not remembered (a tool minting question ids by the
// thousand prints its answers anyway).
const maxSecretQuestions = 4096

// secretQuestions is the (tool, question id) pairs asked as Secret in a
// catalog's lifetime. Safe for concurrent use. The zero value is empty.
type secretQuestions struct {
	mu  sync.Mutex
	ids map[[2]string]bool
}

// note remembers the questions of qs that tool name asked as Secret.
func (s *secretQuestions) note(name string, qs []tool.Question) {
	for _, q := range qs {
		if q.AnswerType.Kind != tool.AnswerSecret {
			continue
		}
		s.mu.Lock()
		if s.ids == nil {
			s.ids = map[[2]string]bool{}
		}
		if len(s.ids) < maxSecretQuestions {
			s.ids[[2]string{name, q.ID}] = true
		}
		s.mu.Unlock()
	}
}

// values returns the non-empty text answers of answers whose question
// tool name asked as Secret.
func (s *secretQuestions) values(name string, answers map[string]any) []string {
	var vals []string
	s.mu.Lock()
	defer s.mu.Unlock()
	for id, a := range answers {
		if v, ok := a.(string); ok && v != "" && s.ids[[2]string{name, id}] {
			vals = append(vals, v)
		}
	}
	return vals
}
