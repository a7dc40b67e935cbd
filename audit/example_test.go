package audit_test

import (
	"encoding/json"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/toolhost/toolhost/audit"
)

// A host opens the log once and writes one record per call. A secret
// never reaches the file, wherever it shows up.
func Example() {
	dir, err := os.MkdirTemp("", "audit-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	l, err := audit.Open(filepath.Join(dir, "audit.jsonl"), nil) // audit.DefaultPath(nil) in a host
	if err != nil {
		log.Fatal(err)
	}
	defer l.Close()
	const token = "s3cr3t-t0ken"
	l.AddSecret(token)
	err = l.Write(&audit.Record{ // one line, one write(2)
		Face: "mcp", Tool: "grep", Arguments: json.RawMessage(`{"pattern":"` + token + `"}`),
		Duration: 3 * time.Millisecond, Outcome: audit.OutcomeSuccess,
	})
	if err != nil {
		log.Fatal(err)
	}
	data, err := os.ReadFile(l.Path())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("lines:", strings.Count(string(data), "\n"))
	fmt.Println("token written:", strings.Contains(string(data), token))
	// Output:
	// lines: 1
	// token written: false
}
