package config

import (
	"errors"
	"fmt"
)

// AppendServer registers an MCP server for `toolhost add --mcp`: it
// appends
//
//	[mcp_servers.NAME]
//	command = "…"          # a server started over stdio, or
//	url = "https://…"      # one reached over streamable HTTP
//
// to file, as [AppendTool] appends a tool: the bytes already there stay,
// the write is atomic, and the bytes written are returned. Exactly one of
// command and url is set. It refuses when the file is not valid
// configuration or already has [mcp_servers.NAME].
func AppendServer(file, name string, command []string, url string) ([]byte, error) {
	switch {
	case name == "":
		return nil, errors.New("config: add --mcp: empty server name")
	case (len(command) == 0) == (url == ""):
		return nil, fmt.Errorf("config: add --mcp %q: give a command or a url, not both or neither", name)
	case len(command) > 0 && command[0] == "":
		return nil, fmt.Errorf("config: add --mcp %q: empty command", name)
	}
	text := fmt.Sprintf("[%s]\n", dotted([]string{"mcp_servers", name}))
	if url != "" {
		text += "url = " + tomlString(url) + "\n"
	} else {
		text += "command = " + commandValue(command) + "\n"
	}
	check := func(layer *Config) error {
		if s, ok := layer.Servers[name]; ok {
			return fmt.Errorf("config: %s: MCP server %q already exists in %s; edit it there or choose another name", s.Place, name, file)
		}
		return nil
	}
	return appendText(file, fmt.Sprintf("add --mcp %q", name), fmt.Sprintf("add --mcp %q to", name), check, text)
}
