package cli

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/toolhost/toolhost/audit"
)

// auditFlag is serve's --audit.
var auditFlag = &cli.StringFlag{Name: "audit", Usage: "append one JSON line per call to the audit log `FILE` (docs/audit.md; default " + auditDefaultHelp + "); off: keep none"}

// openAudit opens the audit log serve writes: --audit FILE, none with
// --audit off, else the default file. The default is best effort: when it
// cannot be opened, serve warns and goes on without an audit log. A FILE
// given explicitly that cannot be opened is an error. A nil *audit.Log
// (off) writes nothing.
func (a *app) openAudit(c *cli.Context) (*audit.Log, error) {
	path := c.String("audit")
	switch path {
	case "off":
		return nil, nil
	case "":
		path = audit.DefaultPath(a.opts.Getenv)
		if path == "" {
			fmt.Fprintf(a.stderr, "%s: no audit log: neither XDG_STATE_HOME nor HOME is set; give --audit FILE (or --audit off)\n", a.errOut.yellow("warning"))
			return nil, nil
		}
		log, err := audit.Open(path, nil)
		if err != nil {
			fmt.Fprintf(a.stderr, "%s: no audit log: %v\n", a.errOut.yellow("warning"), err)
			return nil, nil
		}
		return log, nil
	}
	log, err := audit.Open(path, nil)
	if err != nil {
		return nil, commandUsageErrorf(c.Command.HelpName, "serve: --audit: %v", err)
	}
	return log, nil
}
