package cli

import (
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/toolhost/toolhost/config"
)

// workspaceRoot is --root made absolute, or the current directory.
func workspaceRoot(c *cli.Context) (string, error) {
	root := c.String("root")
	if root == "" {
		return os.Getwd()
	}
	return filepath.Abs(root)
}

// findRoot returns the workspace root: --root when given, else the
// directory holding the .config/toolhost found by walking up from the
// current directory (as git finds its repository), else the current
// directory. Relative commands in the configuration are taken from it, so
// toolhost works the same from any subdirectory of a workspace.
func findRoot(c *cli.Context) (string, error) {
	if c.String("root") != "" {
		return workspaceRoot(c)
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	if dir, ok := config.WorkspaceDir(wd); ok {
		return filepath.Dir(filepath.Dir(dir)), nil
	}
	return wd, nil
}
