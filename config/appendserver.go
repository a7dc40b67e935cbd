package config

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// AppendServers registers MCP servers for `toolhost add --mcp` and
// `toolhost import --mcp-json`: it appends an [mcp_servers.NAME] table
// for each of servers to file, as [AppendTool] appends a tool. The bytes
// already there stay, the write is atomic, and the bytes written are
// returned. It writes each server's command (with its Args), dir, env
// and secrets, or its url, headers and bearer_token_env, and
// enabled = false for a disabled one. Each server has a name and exactly
// one of a command and a url. Nothing is written when the file is not
// valid configuration or already has one of the names.
func AppendServers(file string, servers []*Server) ([]byte, error) {
	for _, s := range servers {
		switch {
		case s.Name == "":
			return nil, errors.New("config: add --mcp: empty server name")
		case s.Command.IsZero() == (s.URL == ""):
			return nil, fmt.Errorf("config: add --mcp %q: give a command or a url, not both or neither", s.Name)
		case !s.Command.IsZero() && len(s.Command.Args) > 0 && s.Command.Args[0] == "":
			return nil, fmt.Errorf("config: add --mcp %q: empty command", s.Name)
		}
	}
	return appendServers(file, "add --mcp", "add --mcp to", servers)
}

// appendServers writes servers' tables at the end of file for op.
func appendServers(file, op, into string, servers []*Server) ([]byte, error) {
	check := func(layer *Config) error {
		for _, s := range servers {
			if have, ok := layer.Servers[s.Name]; ok {
				return fmt.Errorf("config: %s: MCP server %q already exists in %s; edit it there or choose another name", have.Place, s.Name, file)
			}
		}
		return nil
	}
	return appendText(file, op, into, check, ServersText(servers))
}

// ServersText is the TOML of servers' [mcp_servers.NAME] tables, as
// [AppendServers] writes them.
func ServersText(servers []*Server) string {
	var b strings.Builder
	for i, s := range servers {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "[%s]\n", dotted([]string{"mcp_servers", s.Name}))
		if s.URL != "" {
			b.WriteString("url = " + tomlString(s.URL) + "\n")
		} else {
			b.WriteString("command = " + CommandValue(s.Argv()) + "\n")
		}
		if s.Dir != "" {
			b.WriteString("dir = " + tomlString(s.Dir) + "\n")
		}
		for _, k := range slices.Sorted(maps.Keys(s.Headers)) {
			fmt.Fprintf(&b, "headers.%s = %s\n", dotted([]string{k}), tomlString(s.Headers[k]))
		}
		if s.BearerTokenEnv != "" {
			b.WriteString("bearer_token_env = " + tomlString(s.BearerTokenEnv) + "\n")
		}
		names := slices.Sorted(maps.Keys(s.Env))
		names = append(names, slices.Sorted(maps.Keys(s.Secrets))...)
		slices.Sort(names)
		for _, k := range names {
			if ref, ok := s.Secrets[k]; ok {
				fmt.Fprintf(&b, "env.%s = { secret = %s }\n", dotted([]string{k}), tomlString(ref.String()))
			} else {
				fmt.Fprintf(&b, "env.%s = %s\n", dotted([]string{k}), tomlString(s.Env[k]))
			}
		}
		if s.Disabled() {
			b.WriteString("enabled = false\n")
		}
	}
	return b.String()
}
