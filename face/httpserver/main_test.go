package httpserver_test

import (
	"os"
	"testing"

	"github.com/toolhost/toolhost/internal/testenv"
)

// TestMain keeps the user's files out of the tests: `toolhost serve`
// would write into the user's audit log, and Chromium into the user's
// config and cache directories.
func TestMain(m *testing.M) { os.Exit(testenv.Run(m)) }
