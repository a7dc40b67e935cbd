package cli

// faces are the ways a client of serve --http runs a tool.
const faces = "/mcp, the page and POST /tools/{name}/call"

// executeLine is the line of the serve --http banner that says what runs
// tools and what guards them: --allow-execute lets every face run tools
// (none does without it: tools/list still works); a token guards /mcp and
// calls, and with --token-everywhere the read-only endpoints too.
func executeLine(allow bool, token string, everywhere bool) string {
	guard := ""
	switch {
	case token != "" && everywhere:
		guard = "token required (--token), on every endpoint but the page (--token-everywhere)"
	case token != "":
		guard = "token required on /mcp and calls (--token)"
	}
	if !allow {
		line := "tools/call disabled: no tool runs via " + faces + " (tools/list works); add --allow-execute to run them"
		if guard != "" {
			line += "; " + guard
		}
		return line
	}
	if guard == "" {
		guard = "no token: any program that can reach the address can run them, and approve those that ask (--token TOKEN requires one)"
	}
	return "tools run via " + faces + ": allowed (--allow-execute), " + guard
}

// exposure is what the warning about a non-loopback address says anyone
// who can reach it can do.
func exposure(allow bool) string {
	if allow {
		return "anyone who can reach it and has the token can run these tools"
	}
	return "anyone who can reach it can list these tools (none runs without --allow-execute)"
}
