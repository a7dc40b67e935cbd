package cli

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/toolhost/toolhost/audit"
)

// callAuditFlag is call's --audit: a one-shot call is audited as the
// calls of serve are, in the same log, unless given --audit off.
var callAuditFlag = &cli.StringFlag{Name: "audit", Usage: "append the call's line to the audit log `FILE` (docs/audit.md; default " + auditDefaultHelp + "); off: none"}

// openCallAudit opens the log call writes its line to: --audit FILE, none
// with --audit off, else the default file serve writes too. The default is
// best effort: when it cannot be opened, call warns and runs the tool
// anyway. A FILE given explicitly that cannot be opened is an error
// (exit 2).
func (a *app) openCallAudit(c *cli.Context) (*audit.Log, error) {
	path := c.String("audit")
	switch path {
	case "off":
		return nil, nil
	case "":
		if path = audit.DefaultPath(a.opts.Getenv); path == "" {
			return nil, nil // no home: nowhere to keep it, and nothing to say at each call
		}
		log, err := audit.Open(path, nil)
		if err != nil {
			fmt.Fprintf(a.stderr, "%s: the call is not audited: %v (give --audit FILE, or --audit off)\n", a.errOut.yellow("warning"), err)
			return nil, nil
		}
		return log, nil
	}
	log, err := audit.Open(path, nil)
	if err != nil {
		return nil, commandUsageErrorf(c.Command.HelpName, "call: --audit: %v", err)
	}
	return log, nil
}
