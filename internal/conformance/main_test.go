package conformance

import (
	"os"
	"testing"

	"github.com/toolhost/toolhost/internal/testenv"
)

// TestMain keeps the user's files out of the tests: the toolhost the
// suite talks to would read the user's configuration and write into the
// user's audit log. The test binary also plays the helpers of the client
// scenarios (see helper in client_test.go).
func TestMain(m *testing.M) {
	if os.Getenv(helperVar) != "" && len(os.Args) > 1 {
		os.Exit(helper(os.Args[1], os.Args[2:]))
	}
	os.Exit(testenv.Run(m))
}
