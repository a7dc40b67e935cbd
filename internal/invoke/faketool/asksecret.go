package faketool

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/toolhost/toolhost/tool"
)

// AskSecretSchema is the schema answer of the "asks-secret" scenario. It
// has one protocol v2 tool, login(exit = 0), which asks a "Secret"
// question.
const AskSecretSchema = `{"protocol":"2","tools":[{"name":"login","summary":"Log in with a password it asks for.",` +
	`"input_schema":{"type":"object","properties":{"exit":{"type":"integer","default":0,` +
	`"description":"Exit with this status, without an outcome, once answered, when not 0."}}}}]}`

// AskSecretQuestion is the question the "asks-secret" scenario asks until
// it has an answer, as the protocol spells it.
const AskSecretQuestion = `{"type":"needs_input","question":{"id":"password","text":"Password for the service?",` +
	`"pre_amble":null,"answer_type":"Secret","default":null}}`

// askSecret asks [AskSecretQuestion]. Once answered it prints the answer
// on stderr, as a careless tool would. It answers success "password=HASH",
// with the [AuditedHash] of the answer. With exit set it instead exits
// with that status, without an outcome, after that stderr line. So an
// error quotes it.
func askSecret() int {
	data, _ := io.ReadAll(os.Stdin)
	req, err := tool.DecodeRequestV2(data)
	if err != nil {
		fmt.Fprintln(os.Stderr, "asks-secret:", err)
		return 2
	}
	switch req.Context.Action {
	case tool.ActionSchema:
		fmt.Println(AskSecretSchema)
		return 0
	case tool.ActionFormatArguments:
		fmt.Printf(`{"type":"success","content":"log in (answers so far: %d)"}`+"\n", len(req.Tool.Answers))
		return 0
	}
	answer, ok := req.Tool.Answers["password"].(string)
	if !ok {
		fmt.Println(AskSecretQuestion)
		return 0
	}
	fmt.Fprintf(os.Stderr, "login: the password is %q\n", answer)
	n, _ := req.Tool.Arguments["exit"].(json.Number)
	if code, _ := n.Int64(); code != 0 {
		return int(code)
	}
	out, _ := json.Marshal(tool.Success("password=" + AuditedHash(answer, true)))
	fmt.Println(string(out))
	return 0
}

func init() { shared["asks-secret"] = askSecret }
