package faketool

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/toolhost/toolhost/tool"
)

// AuditedSchema is the schema answer of the "audited" scenario. It has one
// tool, audited(text = "hi", exit = 0, api_key).
const AuditedSchema = `{"tools":[{"name":"audited","summary":"Report what it received.","parameters":{` +
	`"text":{"type":"string","default":"hi"},` +
	`"exit":{"type":"integer","default":0,"summary":"Exit with this status, without an outcome, when not 0."},` +
	`"api_key":{"type":"string","required":false,"summary":"A secret-named argument."}}}]}`

// AuditedHash is how the "audited" scenario shows a variable's value. It
// is the first 16 hex digits of its SHA-256, "unset" when it is not set.
func AuditedHash(value string, set bool) string {
	if !set {
		return "unset"
	}
	sum := sha256.Sum256([]byte(value))
	return hex.EncodeToString(sum[:8])
}

// audited is a tool whose answer tells a test what it received. run
// answers success "got N bytes, VAR=HASH". N is the request's size. HASH
// is the [AuditedHash] of the variable os.Args[2], "SECRET" when not
// given. It prints the variable's value on stderr, as a careless tool
// would. With exit set, it exits with that status, without an outcome,
// after that stderr line.
func audited() int {
	data, _ := io.ReadAll(os.Stdin)
	req, err := tool.DecodeRequest(data)
	if err != nil {
		fmt.Fprintln(os.Stderr, "audited:", err)
		return 2
	}
	if req.Context.Action == tool.ActionSchema {
		fmt.Println(AuditedSchema)
		return 0
	}
	name := "SECRET"
	if len(os.Args) > 2 {
		name = os.Args[2]
	}
	value, set := os.LookupEnv(name)
	fmt.Fprintf(os.Stderr, "audited: %s is %q\n", name, value)
	n, _ := req.Tool.Arguments["exit"].(json.Number)
	if code, _ := n.Int64(); code != 0 {
		return int(code)
	}
	out, _ := json.Marshal(tool.Success(fmt.Sprintf("got %d bytes, %s=%s", len(data), name, AuditedHash(value, set))))
	fmt.Println(string(out))
	return 0
}

func init() { shared["audited"] = audited }
