package oauth

import (
	"os"
	"path/filepath"
	"testing"
)

// The test binary plays secret-tool when started under that name (see
// TestStoreKeyring): it keeps items as files in $FAKE_KEYRING_DIR.
func TestMain(m *testing.M) {
	if filepath.Base(os.Args[0]) == "secret-tool" {
		os.Exit(fakeSecretTool(os.Args[1:]))
	}
	os.Exit(m.Run())
}
