package config

import (
	"errors"
	"fmt"
	"strings"
)

// Imported is one entry `toolhost import --mcp` writes: [tools.Name]
// serving the tool Tool of the MCP server Server. Or, when Tool is empty,
// [toolsets.Name] serving the server's other tools, all but Exclude (the
// ones imported), so that importing some tools hides none of the rest.
type Imported struct {
	Name, Server, Tool string
	Exclude            []string // with Tool empty: the server's tools the toolset leaves out
}

// ImportText is the TOML [AppendImported] appends for entries, one table
// each, a blank line between them:
//
//	[tools.NAME]
//	source = "mcp.SERVER.TOOL"
//
//	[toolsets.NAME]
//	source = "mcp.SERVER"
//	exclude = ["TOOL"]
func ImportText(entries []Imported) string {
	var b strings.Builder
	for i, e := range entries {
		if i > 0 {
			b.WriteByte('\n')
		}
		if e.Tool == "" {
			q := make([]string, len(e.Exclude))
			for i, x := range e.Exclude {
				q[i] = tomlString(x)
			}
			fmt.Fprintf(&b, "[%s]\nsource = %s\nexclude = [%s]\n", dotted([]string{"toolsets", e.Name}), tomlString("mcp."+e.Server), strings.Join(q, ", "))
			continue
		}
		fmt.Fprintf(&b, "[%s]\nsource = %s\n", dotted([]string{"tools", e.Name}), tomlString("mcp."+e.Server+"."+e.Tool))
	}
	return b.String()
}

// AppendImported registers an MCP server's tools for `toolhost import
// --mcp`: it appends [ImportText] to file, leaving the bytes already there
// (comments included) untouched, as [AppendTool] does, atomically. It
// refuses, writing nothing, when the file is not valid configuration or
// already has [tools.NAME] for one of the entries (the error names the
// first such entry and where it is). It returns the bytes it wrote.
func AppendImported(file string, entries []Imported) ([]byte, error) {
	if len(entries) == 0 {
		return nil, errors.New("config: import: no tools to write")
	}
	for _, e := range entries {
		if e.Name == "" || e.Server == "" || (e.Tool == "") == (len(e.Exclude) == 0) {
			return nil, fmt.Errorf("config: import: entry %q for server %q, tool %q: a name, a server and a tool (or, for the other tools, an exclude list) are required", e.Name, e.Server, e.Tool)
		}
	}
	check := func(layer *Config) error {
		for _, e := range entries {
			if have, ok := layer.Tools[e.Name]; ok && e.Tool != "" {
				return fmt.Errorf("config: %s: tool %q already exists; nothing was written: edit or remove it there, or import under other names with --prefix", have.Place, e.Name)
			}
			if have, ok := layer.Toolsets[e.Name]; ok && e.Tool == "" {
				return fmt.Errorf("config: %s: toolset %q already exists; nothing was written: edit or remove it there", have.Place, e.Name)
			}
		}
		return nil
	}
	return appendText(file, "import", "import into", check, ImportText(entries))
}
