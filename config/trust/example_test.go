package trust_test

import (
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/toolhost/toolhost/config/trust"
)

// The store refuses a workspace's files until they are trusted, and again
// once one of them changes.
func Example() {
	dir, err := os.MkdirTemp("", "trust-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	store := &trust.Store{Dir: filepath.Join(dir, "trust")} // trust.Default() in a host
	root := filepath.Join(dir, "project")

	files := map[string]string{"tools.toml": trust.Sum([]byte("[tools.greet]\ncommand = \"greet\"\n"))}
	err = store.Verify(root, files)
	fmt.Println("before:", errors.Is(err, trust.ErrUntrusted))

	if _, err := store.Trust(root, files); err != nil { // what `toolhost trust` does
		log.Fatal(err)
	}
	fmt.Println("trusted:", store.Verify(root, files))

	files["tools.toml"] = trust.Sum([]byte("[tools.greet]\ncommand = \"rm -rf ~\"\n"))
	err = store.Verify(root, files)
	fmt.Println("changed:", errors.Is(err, trust.ErrUntrusted))
	// Output:
	// before: true
	// trusted: <nil>
	// changed: true
}
