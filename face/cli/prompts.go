package cli

import (
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/urfave/cli/v2"
)

// newPromptsCommand is `toolhost prompts` and `toolhost prompts get`.
func newPromptsCommand(a *app) *cli.Command {
	return &cli.Command{
		Name:  "prompts",
		Usage: "list the MCP servers' prompts, or get one",
		Description: "Lists the prompts of the MCP servers the configuration names (each server\n" +
			"starts if it is not running), one line each: its name, with its server's\n" +
			"prefix, its arguments and its description. With --json, prints\n" +
			"{\"prompts\":[…]} as MCP lists them.\n\n" +
			"Examples:\n   toolhost prompts\n   toolhost prompts get review_code language=go\n   toolhost prompts get test_simple_prompt --json",
		Flags: []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print the prompts as MCP lists them"}},
		Action: func(c *cli.Context) error {
			if err := checkArgs(c, 0, 0, ""); err != nil {
				return err
			}
			return promptsRun(c, a, &promptsOptions{JSON: c.Bool("json")})
		},
		Subcommands: []*cli.Command{{
			Name:      "get",
			Usage:     "print a prompt's messages",
			ArgsUsage: "NAME [ARG=VALUE…]",
			Description: "Gets the prompt NAME, with its arguments, from the MCP server that offers it\n" +
				"and prints its messages, each after its role. With --json, prints\n" +
				"{\"messages\":[…]} as MCP's prompts/get answers.",
			Flags: []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print the messages as MCP answers them"}},
			Action: func(c *cli.Context) error {
				if err := checkArgs(c, 1, -1, "NAME [ARG=VALUE…]"); err != nil {
					return err
				}
				opts := &promptGetOptions{Name: c.Args().First(), JSON: c.Bool("json"), Args: map[string]string{}}
				for _, kv := range c.Args().Tail() {
					k, v, ok := strings.Cut(kv, "=")
					if !ok || k == "" {
						return commandUsageErrorf(c.Command.HelpName, "%q: give each argument as NAME=VALUE", kv)
					}
					opts.Args[k] = v
				}
				return promptGetRun(c, a, opts)
			},
		}},
	}
}

// promptsOptions are what `toolhost prompts` was given.
type promptsOptions struct {
	JSON bool // --json
}

// promptsRun prints the servers' prompts.
func promptsRun(c *cli.Context, a *app, opts *promptsOptions) error {
	off, err := a.listOffer(c)
	if err != nil {
		return err
	}
	if opts.JSON {
		return writeJSON(a.stdout, struct {
			Prompts []*mcp.Prompt `json:"prompts"`
		}{nonNil(off.Prompts)})
	}
	if len(off.Prompts) == 0 {
		fmt.Fprintln(a.stderr, "no MCP server offers prompts (toolhost add --mcp registers one)")
		return nil
	}
	tw := newTable(a.stdout)
	row(tw, a.out.bold("NAME"), "ARGUMENTS", "DESCRIPTION")
	for _, p := range off.Prompts {
		var args []string
		for _, arg := range p.Arguments {
			if arg == nil {
				continue
			}
			name := arg.Name
			if !arg.Required {
				name = "[" + name + "]"
			}
			args = append(args, name)
		}
		row(tw, a.out.green(a.outText(p.Name)), a.outText(strings.Join(args, " ")), a.outText(firstSentence(p.Description)))
	}
	return tw.Flush()
}

// promptGetOptions are what `toolhost prompts get` was given.
type promptGetOptions struct {
	Name string
	Args map[string]string // ARG=VALUE…
	JSON bool              // --json
}

// promptGetRun prints one prompt's messages.
func promptGetRun(c *cli.Context, a *app, opts *promptGetOptions) error {
	cat, err := a.catalog(c)
	if err != nil {
		return err
	}
	res, err := cat.GetPrompt(c.Context, opts.Name, opts.Args)
	if err != nil {
		return &exitError{code: ExitFailure, err: fmt.Errorf("prompts get: %s", a.errText(err.Error()))}
	}
	if opts.JSON {
		return writeJSON(a.stdout, struct {
			Description string               `json:"description,omitempty"`
			Messages    []*mcp.PromptMessage `json:"messages"`
		}{res.Description, nonNil(res.Messages)})
	}
	for _, m := range res.Messages {
		if m == nil {
			continue
		}
		fmt.Fprintf(a.stdout, "%s: %s\n", a.out.bold(a.outText(string(m.Role))), a.outText(contentText(m.Content)))
	}
	return nil
}

// contentText is what a message's content shows as text: its text, or a
// line naming what is not text.
func contentText(c mcp.Content) string {
	switch c := c.(type) {
	case *mcp.TextContent:
		return c.Text
	case *mcp.ImageContent:
		return fmt.Sprintf("[image: %d bytes of %s]", len(c.Data), c.MIMEType)
	case *mcp.AudioContent:
		return fmt.Sprintf("[audio: %d bytes of %s]", len(c.Data), c.MIMEType)
	case *mcp.EmbeddedResource:
		if c.Resource == nil {
			return "[resource]"
		}
		if c.Resource.Blob != nil {
			return fmt.Sprintf("[resource %s: %d bytes of %s]", c.Resource.URI, len(c.Resource.Blob), c.Resource.MIMEType)
		}
		return fmt.Sprintf("[resource %s]\n%s", c.Resource.URI, c.Resource.Text)
	case *mcp.ResourceLink:
		return fmt.Sprintf("[resource link %s]", c.URI)
	default:
		return fmt.Sprintf("[%T]", c)
	}
}
