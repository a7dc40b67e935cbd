package cli

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/internal/oauth"
	"github.com/toolhost/toolhost/internal/source/servers"
)

// newAuthCommand is `toolhost auth` and its subcommands login, logout and
// status.
func newAuthCommand(a *app) *cli.Command {
	run := func(action string) func(c *cli.Context) error {
		return func(c *cli.Context) error {
			if err := checkArgs(c, 0, 1, "NAME"); err != nil {
				return err
			}
			opts := &authOptions{action: action, name: c.Args().First()}
			return authRun(c, a, opts)
		}
	}
	return &cli.Command{
		Name:  "auth",
		Usage: "sign in to the HTTP servers and remotes that ask for OAuth",
		Subcommands: []*cli.Command{{
			Name:      "login",
			Usage:     "sign in to a server: opens the authorization page in $BROWSER",
			ArgsUsage: "NAME",
			Description: "Signs in afresh to [mcp_servers.NAME] (an HTTP server) or [remotes.NAME],\n" +
				"whatever token is stored. The authorization URL opens in $BROWSER and is\n" +
				"printed on stderr; the browser comes back to a loopback address. Tokens are\n" +
				"kept owner-only under $XDG_STATE_HOME/toolhost/oauth.\n\n" +
				"Example:\n   toolhost auth login github",
			Action: run("login"),
		}, {
			Name:        "logout",
			Usage:       "forget a server's token and registration (every server's without NAME)",
			ArgsUsage:   "[NAME]",
			Description: "Example:\n   toolhost auth logout github",
			Action:      run("logout"),
		}, {
			Name:      "status",
			Usage:     "show which servers toolhost is signed in to",
			ArgsUsage: "[NAME]",
			Description: "Shows each configured HTTP server and remote, and every stored token,\n" +
				"without the tokens themselves.\n\nExample:\n   toolhost auth status",
			Action: run("status"),
		}},
	}
}

// authOptions are what `toolhost auth login|logout|status` was given.
type authOptions struct {
	action string // "login", "logout" or "status"
	name   string // the server or remote, "" for every one (logout, status)
}

// authTarget is one server toolhost may sign in to: its name, URL and
// oauth table.
type authTarget struct {
	name, url string
	oauth     *config.OAuth
	key       string // mcp_servers.NAME or remotes.NAME
	bearer    bool   // it has a fixed bearer token: no sign-in
	endpoint  string // a remote's MCP endpoint, signed in to beside its url; "" for a server
}

// authTargets are the configuration's HTTP servers and remotes, by name.
func authTargets(cfg *config.Config) []authTarget {
	var ts []authTarget
	for name, s := range cfg.Servers {
		if !s.Stdio() && s.URL != "" {
			ts = append(ts, authTarget{name: name, url: s.URL, oauth: s.OAuth, key: s.Key(), bearer: s.BearerTokenEnv != ""})
		}
	}
	for name, r := range cfg.Remotes {
		ts = append(ts, authTarget{name: name, url: r.URL, oauth: r.OAuth, key: r.Key(), bearer: r.BearerTokenEnv != "",
			endpoint: strings.TrimRight(r.URL, "/") + "/mcp"})
	}
	slices.SortFunc(ts, func(x, y authTarget) int { return strings.Compare(x.name, y.name) })
	return ts
}

// authRun signs in, signs out or shows the status.
func authRun(c *cli.Context, a *app, opts *authOptions) error {
	root, err := findRoot(c)
	if err != nil {
		return &exitError{code: ExitFailure, err: err}
	}
	cfg, err := a.loadConfig(c, root)
	if err != nil {
		return err
	}
	targets := authTargets(cfg)
	if opts.name != "" {
		i := slices.IndexFunc(targets, func(t authTarget) bool { return t.name == opts.name })
		if i < 0 {
			names := make([]string, len(targets))
			for i, t := range targets {
				names[i] = t.name
			}
			hint := "no HTTP server or remote is configured"
			if len(names) > 0 {
				hint = "the configured ones are " + strings.Join(names, ", ")
			}
			return &exitError{code: ExitFailure, err: fmt.Errorf("auth %s: no HTTP server or remote named %q: %s", opts.action, opts.name, hint)}
		}
		targets = targets[i : i+1]
	} else if opts.action == "login" {
		return usageErrorf("auth login needs the NAME of an HTTP server or remote")
	}
	store := oauth.DefaultStore()
	clients := func(t authTarget, interactive bool) ([]*oauth.Client, error) {
		oc, err := servers.OAuthConfig(t.key, t.oauth)
		if err != nil {
			return nil, err
		}
		o := a.oauthOptions(interactive)
		o.Store = store
		cs := []*oauth.Client{oauth.New(t.name, t.url, oc, o)}
		if t.endpoint != "" {
			cs = append(cs, oauth.New(t.name, t.endpoint, oc, o))
		}
		return cs, nil
	}
	switch opts.action {
	case "login":
		t := targets[0]
		if t.bearer {
			return &exitError{code: ExitFailure, err: fmt.Errorf("auth login: [%s] sends the fixed token of bearer_token_env; remove it to sign in with OAuth", t.key)}
		}
		cs, err := clients(t, true)
		if err != nil {
			return &exitError{code: ExitFailure, err: err}
		}
		// A remote's manifest and MCP endpoint are two resources, each
		// with its own token; either may ask for none.
		var signedIn *oauth.Client
		var firstErr error
		for _, cl := range cs {
			if err := cl.Login(c.Context); err != nil {
				if !errors.Is(err, oauth.ErrNotProtected) {
					return &exitError{code: ExitFailure, err: oauthProblem(err)}
				}
				firstErr = cmp.Or(firstErr, err)
				continue
			}
			signedIn = cmp.Or(signedIn, cl)
		}
		if signedIn == nil {
			return &exitError{code: ExitFailure, err: oauthProblem(firstErr)}
		}
		st, _ := signedIn.Status()
		fmt.Fprintf(a.stdout, "%s: %s\n", t.name, st)
	case "logout":
		if opts.name == "" {
			recs, err := store.List()
			for _, r := range recs {
				if _, err := store.Delete(r.Resource); err != nil {
					return &exitError{code: ExitFailure, err: err}
				}
				fmt.Fprintf(a.stdout, "%s: signed out (%s)\n", r.Server, r.Resource)
			}
			if err != nil {
				return &exitError{code: ExitFailure, err: err}
			}
			return nil
		}
		cs, err := clients(targets[0], false)
		if err != nil {
			return &exitError{code: ExitFailure, err: err}
		}
		had := false
		for _, cl := range cs {
			h, err := cl.Logout()
			if err != nil {
				return &exitError{code: ExitFailure, err: oauthProblem(err)}
			}
			had = had || h
		}
		if had {
			fmt.Fprintf(a.stdout, "%s: signed out\n", targets[0].name)
		} else {
			fmt.Fprintf(a.stdout, "%s: not signed in\n", targets[0].name)
		}
	case "status":
		recs, listErr := store.List()
		seen := map[string]bool{}
		tw := newTable(a.stdout)
		for _, t := range targets {
			line := "not signed in"
			if t.bearer {
				line = "fixed token (bearer_token_env)"
			} else if i := slices.IndexFunc(recs, func(r *oauth.Record) bool { return oauth.SameResource(r.Resource, t.url) }); i >= 0 {
				line = statusLine(oauth.StatusOf(recs[i]))
				seen[recs[i].Resource] = true
			}
			row(tw, a.outText(t.name), a.outText(t.url), a.outText(line))
		}
		if opts.name == "" {
			for _, r := range recs {
				if !seen[r.Resource] {
					row(tw, a.outText(r.Server), a.outText(r.Resource), a.outText(statusLine(oauth.StatusOf(r))))
				}
			}
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		if listErr != nil {
			return &exitError{code: ExitFailure, err: listErr}
		}
	}
	return nil
}

// statusLine is one server's sign-in state, without secrets.
func statusLine(s *oauth.Status) string {
	switch {
	case s == nil:
		return "not signed in"
	case !s.HasToken:
		return "registered, no token: run toolhost auth login"
	}
	line := "signed in at " + s.Issuer
	if len(s.Scopes) > 0 {
		line += ", scopes " + strings.Join(s.Scopes, " ")
	}
	switch {
	case s.Expired && s.HasRefresh:
		line += ", expired (refreshed on next use)"
	case s.Expired:
		line += ", expired: run toolhost auth login"
	case s.Expiry != "":
		line += ", until " + s.Expiry
	}
	return line
}

// oauthOptions are the options of the OAuth clients the CLI makes: the
// default token store, and, when interactive, the browser and stderr.
func (a *app) oauthOptions(interactive bool) *oauth.Options {
	return &oauth.Options{Store: oauth.DefaultStore(), Interactive: interactive, Out: a.stderr}
}

// oauthProblem is an OAuth failure with its fix, as the CLI prints errors.
func oauthProblem(err error) error {
	var oe *oauth.Error
	if errors.As(err, &oe) && oe.Fix != "" {
		return catalog.Problem{Err: oe, Fix: oe.Fix}
	}
	return err
}

// Client mode reads no configuration: the oauth table of the server it
// talks to comes from these variables, when any is set.
const (
	envClientID          = "TOOLHOST_OAUTH_CLIENT_ID"
	envClientSecret      = "TOOLHOST_OAUTH_CLIENT_SECRET"
	envClientMetadataURL = "TOOLHOST_OAUTH_CLIENT_METADATA_URL"
)

// clientOAuth is the oauth table of client mode's server, from the
// environment, nil when it sets none of it.
func clientOAuth() *config.OAuth {
	o := &config.OAuth{ClientID: os.Getenv(envClientID), ClientMetadataURL: os.Getenv(envClientMetadataURL)}
	if os.Getenv(envClientSecret) != "" {
		o.ClientSecretEnv = envClientSecret
	}
	if o.ClientID == "" && o.ClientMetadataURL == "" && o.ClientSecretEnv == "" {
		return nil
	}
	return o
}
