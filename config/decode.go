package config

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
)

// maxErrors bounds the problems reported for one file.
const maxErrors = 20

// decoder turns one parsed TOML document into a layer, strictly: it walks
// the generic map BurntSushi/toml produced, so that every unknown key and
// wrong type is reported with the key's line (see [keyLines]).
type decoder struct {
	file  string
	lines *keyLines
	errs  []*Error
}

// parseLayer parses one file without the whole-configuration checks (a
// layer may override an entry whose command an earlier layer sets).
func parseLayer(file string, data []byte) (*Config, error) {
	// The key lines are found beside the TOML parse, on another
	// processor, when the file is large enough to pay for it.
	var lines *keyLines
	scanned := make(chan struct{})
	if len(data) >= scanAside {
		go func() { lines = scanKeys(data); close(scanned) }()
	} else {
		lines = scanKeys(data)
		close(scanned)
	}
	var doc map[string]any
	_, err := toml.Decode(string(data), &doc)
	<-scanned
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			pe.Position = fixPosition(data, pe.Position)
			return nil, &Error{
				Pos:   Position{File: file, Line: pe.Position.Line},
				Key:   pe.LastKey,
				Err:   ErrSyntax,
				Msg:   "TOML syntax error: " + pe.Message,
				Parse: &pe,
			}
		}
		return nil, &Error{Pos: Position{File: file}, Err: ErrSyntax, Msg: "TOML syntax error: " + err.Error()}
	}
	d := &decoder{file: file, lines: lines}
	cfg := d.document(doc)
	if err := d.err(); err != nil {
		return nil, err
	}
	cfg.Files = []string{file}
	return cfg, nil
}

// scanAside is the size from which parseLayer scans the key lines
// concurrently with the TOML parse.
const scanAside = 8 << 10

// fixPosition recomputes the line and column of a TOML parse error from its
// byte offset. The parser counts a newline before reporting it. So an error
// at the end of a line (an unclosed "[tools.x") was placed on the next line.
func fixPosition(data []byte, p toml.Position) toml.Position {
	if p.Start < 0 || p.Start > len(data) {
		return p
	}
	before := data[:p.Start]
	p.Line = 1 + bytes.Count(before, []byte("\n"))
	p.Col = p.Start - bytes.LastIndexByte(before, '\n')
	return p
}

func (d *decoder) pos(path []string) Position {
	return Position{File: d.file, Line: d.lines.line(path)}
}

func (d *decoder) fail(path []string, kind error, format string, args ...any) {
	d.errs = append(d.errs, newError(d.pos(path), dotted(path), kind, format, args...))
}

// err returns the problems sorted by position: one *Error, or several
// joined.
func (d *decoder) err() error {
	if len(d.errs) == 0 {
		return nil
	}
	sort.SliceStable(d.errs, func(i, j int) bool {
		if d.errs[i].Pos.Line != d.errs[j].Pos.Line {
			return d.errs[i].Pos.Line < d.errs[j].Pos.Line
		}
		return d.errs[i].Key < d.errs[j].Key
	})
	if len(d.errs) == 1 {
		return d.errs[0]
	}
	errs := make([]error, 0, min(len(d.errs), maxErrors))
	for _, e := range d.errs[:min(len(d.errs), maxErrors)] {
		errs = append(errs, e)
	}
	return errors.Join(errs...)
}

func (d *decoder) unknown(path []string, known []string) {
	hint := ""
	if s := suggestKey(path[len(path)-1], known); s != "" {
		hint = fmt.Sprintf(" (did you mean %q?)", s)
	} else if top := path[len(path)-1]; len(path) > 1 && slices.Contains(topKeys, top) {
		// mcp_servers.fs = {…} written below [tools.greet] is that table's
		// key in TOML: the user meant the top-level table.
		hint = fmt.Sprintf(" (a key written after [%s] belongs to that table: to set %s, put the line above the file's first [table], or write it as [%s.NAME])",
			dotted(path[:len(path)-1]), top, top)
	}
	d.fail(path, ErrUnknownKey, "unknown key %q%s", dotted(path), hint)
}

func (d *decoder) wrongType(path []string, want string, v any) {
	d.fail(path, ErrWrongType, "%s: want %s, got %s", dotted(path), want, describe(v))
}

func sortedKeys[M ~map[string]V, V any](m M) []string {
	return slices.Sorted(maps.Keys(m))
}

func with(path []string, keys ...string) []string {
	return append(slices.Clip(path), keys...)
}

var topKeys = []string{"defaults", "tools", "toolsets", "categories", "mcp_servers", "remotes"}

func (d *decoder) document(doc map[string]any) *Config {
	cfg := &Config{
		Tools:      map[string]*Entry{},
		Toolsets:   map[string]*Entry{},
		Categories: map[string]*Category{},
		Servers:    map[string]*Server{},
		Remotes:    map[string]*Remote{},
	}
	for _, k := range sortedKeys(doc) {
		v := doc[k]
		path := []string{k}
		switch k {
		case "defaults":
			if t, ok := d.table(path, v); ok {
				cfg.Defaults = d.defaults(path, t)
			}
		case "tools", "toolsets":
			t, ok := d.table(path, v)
			if !ok {
				continue
			}
			for _, name := range sortedKeys(t) {
				if e := d.entry(with(path, name), name, k == "toolsets", t[name]); e != nil {
					if k == "tools" {
						cfg.Tools[name] = e
					} else {
						cfg.Toolsets[name] = e
					}
				}
			}
		case "categories":
			t, ok := d.table(path, v)
			if !ok {
				continue
			}
			for _, id := range sortedKeys(t) {
				if c := d.category(with(path, id), id, t[id]); c != nil {
					cfg.Categories[id] = c
				}
			}
		case "mcp_servers", "remotes":
			t, ok := d.table(path, v)
			if !ok {
				continue
			}
			for _, name := range sortedKeys(t) {
				if k == "mcp_servers" {
					if s := d.server(with(path, name), name, t[name]); s != nil {
						cfg.Servers[name] = s
					}
				} else if r := d.remote(with(path, name), name, t[name]); r != nil {
					cfg.Remotes[name] = r
				}
			}
		default:
			d.unknown(path, topKeys)
		}
	}
	return cfg
}

var defaultsKeys = slices.Concat([]string{"timeout", "clear_env", "env", "run", "cancellation_response", "access", "sandbox"},
	settingKeys(false), []string{"keep_output"})

func (d *decoder) defaults(path []string, t map[string]any) Defaults {
	def := Defaults{Pos: map[string]Position{}}
	for _, k := range sortedKeys(t) {
		p := with(path, k)
		v := t[k]
		switch k {
		case "timeout":
			def.Timeout = d.duration(p, v)
		case "clear_env":
			def.ClearEnv = d.boolPtr(p, v)
		case "env":
			def.Env, def.Secrets = d.env(p, v, def.Pos)
		case "run":
			def.Run = d.runValue(p, v)
		case "cancellation_response":
			def.CancellationResponse = d.strPtr(p, v)
		case "access":
			def.Access, def.accessReplace = d.access(p, v)
		case "sandbox":
			def.Sandbox = d.sandbox(p, v)
		case "keep_output":
			def.KeepOutput = d.duration(p, v)
		default:
			f, ok := settingOf(k, false)
			if !ok {
				d.unknown(p, defaultsKeys)
				continue
			}
			d.setting(p, &def.Settings, f, v)
		}
		def.Pos[k] = d.pos(p)
	}
	return def
}

var categoryKeys = []string{"name", "description", "icon"}

func (d *decoder) category(path []string, id string, v any) *Category {
	t, ok := d.table(path, v)
	if !ok {
		return nil
	}
	c := &Category{ID: id}
	for _, k := range sortedKeys(t) {
		p := with(path, k)
		switch k {
		case "name":
			c.Name, _ = d.str(p, t[k])
		case "description":
			c.Description, _ = d.str(p, t[k])
		case "icon":
			c.Icon, _ = d.str(p, t[k])
		default:
			d.unknown(p, categoryKeys)
		}
	}
	return c
}

// Keys of an entry. toolsetKeys are the ones a toolset accepts.
var (
	entryKeys = slices.Concat([]string{
		"command", "tool", "source", "shell", "enable", "enabled", "summary", "description",
		"examples", "parameters", "annotations", "options", "category", "tags",
		"requires_approval", "timeout", "workdir", "env", "clear_env", "self_describe",
		"prefix", "include", "exclude", "run", "questions", "cancellation_response", "access", "sandbox",
		"pin",
	}, settingKeys(false))
	toolsetKeys = slices.Concat([]string{
		"command", "shell", "timeout", "workdir", "env", "clear_env", "enable", "enabled",
		"category", "tags", "requires_approval", "options", "prefix", "include", "exclude",
		"run", "questions", "cancellation_response", "access", "sandbox", "source",
		"pin",
	}, settingKeys(false))
	toolsetOnly = []string{"prefix", "include", "exclude"}
)

func (d *decoder) entry(path []string, name string, toolset bool, v any) *Entry {
	t, ok := d.table(path, v)
	if !ok {
		return nil
	}
	e := &Entry{Name: name, Toolset: toolset, Pos: map[string]Position{}, Place: d.pos(path)}
	var source *string
	for _, k := range sortedKeys(t) {
		p := with(path, k)
		v := t[k]
		switch {
		case !slices.Contains(entryKeys, k):
			known := entryKeys
			if toolset {
				known = toolsetKeys
			}
			d.unknown(p, known)
			continue
		case toolset && !slices.Contains(toolsetKeys, k):
			d.fail(p, ErrUnknownKey, "%s: not allowed in [toolsets.NAME] (a toolset serves its tools as the binary describes them; to override one, add a [tools.NAME] entry)", dotted(p))
			continue
		case !toolset && slices.Contains(toolsetOnly, k) && !isMCP(t["source"]):
			d.fail(p, ErrUnknownKey, "%s: only allowed in [toolsets.NAME]", dotted(p))
			continue
		}
		if k == "enabled" { // the [mcp_servers.NAME] spelling, an alias
			if _, both := t["enable"]; both {
				d.fail(p, ErrInvalid, "%s: enable and enabled are the same key; keep one", dotted(path))
				continue
			}
			k = "enable"
		}
		switch k {
		case "command":
			e.Command = d.command(p, v)
		case "tool":
			e.Tool, _ = d.str(p, v)
		case "source":
			if s, ok := d.str(p, v); ok {
				source = &s
			}
			continue // its position is recorded as "tool" by d.source
		case "shell":
			e.Shell = d.boolPtr(p, v)
		case "enable":
			e.Enable = d.boolPtr(p, v)
		case "pin":
			e.Pin = d.boolPtr(p, v)
		case "requires_approval":
			e.RequiresApproval = d.boolPtr(p, v)
		case "run":
			e.Run = d.runValue(p, v)
		case "questions":
			e.Answers = d.questions(p, v, e.Pos)
		case "cancellation_response":
			e.CancellationResponse = d.strPtr(p, v)
		case "clear_env":
			e.ClearEnv = d.boolPtr(p, v)
		case "self_describe":
			e.SelfDescribe = d.boolPtr(p, v)
		case "summary":
			e.Summary = d.strPtr(p, v)
		case "description":
			e.Description = d.strPtr(p, v)
		case "examples":
			e.Examples = d.strPtr(p, v)
		case "parameters":
			e.Parameters, e.AllowOption = d.entryParameters(p, v, e.Pos)
		case "annotations":
			e.Annotations = d.anyTable(p, v, e.Pos)
		case "options":
			e.Options = d.anyTable(p, v, e.Pos)
		case "category":
			e.Category, _ = d.str(p, v)
		case "tags":
			e.Tags = d.strings(p, v)
		case "timeout":
			e.Timeout = d.duration(p, v)
		case "workdir":
			e.Workdir, _ = d.str(p, v)
		case "env":
			e.Env, e.Secrets = d.env(p, v, e.Pos)
		case "prefix":
			e.Prefix, _ = d.str(p, v)
		case "include":
			e.Include = d.strings(p, v)
		case "exclude":
			e.Exclude = d.strings(p, v)
		case "access":
			e.Access, e.accessReplace = d.access(p, v)
		case "sandbox":
			e.Sandbox = d.sandbox(p, v)
		default:
			if f, ok := settingOf(k, false); ok {
				d.setting(p, &e.Settings, f, v)
			}
		}
		e.Pos[k] = d.pos(p)
	}
	if source != nil && !d.mcpSource(path, e, *source, t) {
		d.source(path, e, *source, t["tool"] != nil)
	}
	if e.Include != nil && e.Exclude != nil {
		d.fail(with(path, "exclude"), ErrInvalid, "%s: include and exclude are both set; use one", dotted(path))
	}
	e.finish()
	return e
}

// source applies JP's spelling: source = "local" (the tool is the entry's
// name) or "local.TOOL".
func (d *decoder) source(path []string, e *Entry, src string, hasTool bool) {
	p := with(path, "source")
	var name string
	switch {
	case e.Toolset:
		d.fail(p, ErrInvalid, `%s: a toolset takes source = "mcp.SERVER" only (a local toolset names its binary with command)`, dotted(p))
		return
	case src == "local":
		name = e.Name
	case strings.HasPrefix(src, "local.") && len(src) > len("local."):
		name = strings.TrimPrefix(src, "local.")
	default:
		d.fail(p, ErrInvalid, `%s: unsupported source %q; write "local", "local.TOOL", "mcp.SERVER" or "mcp.SERVER.TOOL"`, dotted(p), src)
		return
	}
	e.JPForm = true
	if hasTool {
		if e.BinaryTool() != name {
			d.fail(p, ErrInvalid, "%s: tool %q and source %q disagree; keep one", dotted(path), e.Tool, src)
		}
		return
	}
	if name == e.Name {
		name = ""
	}
	e.Tool = name
	e.Pos["tool"] = d.pos(p)
}

// isMCP reports whether an entry's source value names an MCP server.
func isMCP(source any) bool {
	s, ok := source.(string)
	return ok && strings.HasPrefix(s, "mcp.")
}

// finish derives Command.Args for the shell form after a merge or parse:
// with shell = true the string goes to /bin/sh whole.
func (e *Entry) finish() {
	if e.Command.Raw == "" {
		return
	}
	if e.Shell != nil && *e.Shell {
		e.Command.Args = []string{e.Command.Raw}
	} else if args, err := SplitWords(e.Command.Raw); err == nil {
		e.Command.Args = args
	}
}

func (d *decoder) command(path []string, v any) Command {
	switch v := v.(type) {
	case string:
		args, err := SplitWords(v)
		if err != nil {
			d.fail(path, ErrInvalid, "%s: %v in %q", dotted(path), err, v)
			return Command{Raw: v}
		}
		if len(args) == 0 || args[0] == "" {
			d.fail(path, ErrInvalid, "%s: empty command", dotted(path))
		}
		return Command{Args: args, Raw: v}
	case []any:
		args := d.strings(path, v)
		if args == nil { // wrong element type, reported
			return Command{}
		}
		if len(args) == 0 || args[0] == "" {
			d.fail(path, ErrInvalid, "%s: empty command", dotted(path))
		}
		return Command{Args: args}
	}
	d.wrongType(path, "a string or an array of strings", v)
	return Command{}
}
