package cli

import "strings"

// faces are the ways a client of serve --http runs a tool.
const faces = "/mcp, the page and POST /tools/{name}/call"

// executeLine is the line of the serve --http banner that says what runs
// tools and what guards them: --allow-execute lets every face run tools
// (none does without it: tools/list still works). A token guards /mcp and
// calls, and with --token-everywhere the read-only endpoints too.
func executeLine(allow bool, token string, everywhere bool) string {
	guard := ""
	switch {
	case token != "" && everywhere:
		guard = "token required on every endpoint but the page (--token-everywhere)"
	case token != "":
		guard = "token required on /mcp, calls and the recent calls"
	}
	if !allow {
		line := "tools/call disabled: no tool runs via " + faces + " (tools/list works); add --allow-execute to run them"
		if guard != "" {
			line += "; " + guard
		}
		return line
	}
	if guard == "" {
		guard = "no token: any program that can reach the address can run them, and approve those that ask (--token-file PATH requires one)"
	}
	return "tools run via " + faces + ": allowed (--allow-execute), " + guard
}

// exposure is what the warning about a non-loopback address says its
// listener exposes, to whom: the listings, running tools, the recent
// calls, and the traffic itself, which is plain HTTP.
func exposure(allow bool, token string, everywhere, audit bool) string {
	var parts []string
	if everywhere {
		parts = append(parts, "with the token, anyone who can reach it can list these tools and read their descriptions and schemas")
	} else {
		parts = append(parts, "anyone who can reach it can list these tools, read their descriptions and schemas and open the tool browser (--token-everywhere requires the token for these)")
	}
	if allow {
		parts = append(parts, "anyone with the token can run them and approve those that ask")
	} else {
		parts = append(parts, "no tool runs (no --allow-execute)")
	}
	switch {
	case !audit:
		parts = append(parts, "no call is recorded (--audit off)")
	case token == "":
		parts = append(parts, "the recent calls are not served (no token)")
	default:
		parts = append(parts, "anyone with the token can read the recent calls, every client's arguments included")
	}
	parts = append(parts, "the traffic is plain HTTP, so the token and every argument and result cross the network unencrypted (serve behind a TLS proxy, named with --allow-host NAME)")
	return strings.Join(parts, "; ")
}
