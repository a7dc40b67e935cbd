package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"github.com/urfave/cli/v2"
)

// tokenEnv is the environment variable serve reads the token from when
// no flag gives one.
const tokenEnv = "TOOLHOST_TOKEN"

// maxTokenFile bounds what --token-file reads: a token is a line.
const maxTokenFile = 4 << 10

// serveToken is the Bearer token serve --http requires: the content of
// --token-file PATH, else --token TOKEN, else $TOOLHOST_TOKEN, "" for
// none. A token given with --token is in the process's command line,
// which every local user can read in /proc/PID/cmdline: serve warns and
// names the two ways that keep it private.
func (a *app) serveToken(c *cli.Context) (string, error) {
	path := c.String("token-file")
	if path != "" && c.IsSet("token") {
		return "", commandUsageErrorf(c.Command.HelpName, "serve: give the token once: --token-file PATH or --token TOKEN, not both")
	}
	if path != "" {
		return readTokenFile(c, path, a)
	}
	if c.IsSet("token") {
		tok := c.String("token")
		fmt.Fprintf(a.stderr, "%s: --token puts the token on the command line, where every user of this machine can read it (ps, /proc/PID/cmdline); "+
			"give it with --token-file PATH (a file only you can read) or in %s instead\n", a.errOut.yellow("warning"), tokenEnv)
		if tok == "" {
			return "", commandUsageErrorf(c.Command.HelpName, "serve: --token is empty: give a token, or leave the flag out")
		}
		return tok, nil
	}
	return a.opts.Getenv(tokenEnv), nil
}

// readTokenFile reads the token from path: its first line, without
// surrounding white space. A file others may read is warned about: the
// token would be theirs too.
func readTokenFile(c *cli.Context, path string, a *app) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", &exitError{code: ExitFailure, err: &usageError{msg: fmt.Sprintf("serve: --token-file: %v", err), path: c.Command.HelpName,
			fix: "write the token to a file only you can read: umask 077; openssl rand -hex 32 > " + path}}
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxTokenFile+1))
	if err != nil {
		return "", commandUsageErrorf(c.Command.HelpName, "serve: --token-file: %v", err)
	}
	if len(data) > maxTokenFile {
		return "", commandUsageErrorf(c.Command.HelpName, "serve: --token-file %s is larger than %d bytes: it should hold the token alone, on one line", path, maxTokenFile)
	}
	line, _, _ := bytes.Cut(data, []byte("\n"))
	tok := string(bytes.TrimSpace(line))
	if tok == "" {
		return "", commandUsageErrorf(c.Command.HelpName, "serve: --token-file %s holds no token: write it on the file's first line (openssl rand -hex 32 > %s)", path, path)
	}
	if fi, err := f.Stat(); err == nil && fi.Mode().Perm()&0o077 != 0 {
		fmt.Fprintf(a.stderr, "%s: --token-file %s can be read by other users (mode %04o): chmod 600 %s\n", a.errOut.yellow("warning"), path, fi.Mode().Perm(), path)
	}
	return tok, nil
}
