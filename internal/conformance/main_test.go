package conformance

import (
	"os"
	"testing"

	"github.com/toolhost/toolhost/internal/testenv"
)

// TestMain keeps the user's files out of the tests: the toolhost the
// suite talks to would read the user's configuration and write into the
// user's audit log.
func TestMain(m *testing.M) { os.Exit(testenv.Run(m)) }
