package binary

import (
	"context"
	"errors"
	"fmt"
	"github.com/toolhost/toolhost/internal/pin"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/internal/invoke"
	"github.com/toolhost/toolhost/internal/source/binary/schemacache"
	"github.com/toolhost/toolhost/tool"
)

// answer is the outcome of asking one group's binary for its schema.
type answer struct {
	key  cacheKey // the group's stat key, "" when none
	resp *tool.SchemaResponse
	err  error
}

// planner resolves a configuration's plan into tools. It asks each
// group's binary for its schema (bounded, concurrently, through the
// schema caches), merges the entries' overrides, lints each tool and
// binds it to the runner. It holds no tools: [Source] installs what a
// pass returns. Safe for concurrent use.
type planner struct {
	root        string
	concurrency int                   // schema requests in flight, at most
	progress    func(done, total int) // Options.Progress; nil: none
	schemas     *schemacache.Session  // schema answers for the catalog's lifetime
	disk        diskCache             // persistent schema answers; zero: none
	runner      *runner               // builds the schema requests, runs the bound tools
	compiled    catalog.Compiled      // input schemas compiled so far
	pins        *pin.Store            // Options.Pins: entries with pin = true are checked; nil: none
}

// resolution is the result of one pass over the plan.
type resolution struct {
	tools    map[string]*entry
	problems []catalog.Problem
	keys     map[string]cacheKey // stat key of each asked group, "" when none
	retry    map[string]bool     // session cache keys of schema requests that failed for a passing reason
	retryFor map[string]string   // entry name → its retry key, for the problem's note
}

// statKey returns the persistent-cache key of a group, "" when it has none.
func (s *planner) statKey(g *group) cacheKey {
	k, ok := statKeyOf(g.spec, s.root)
	if !ok {
		return ""
	}
	return k
}

// schemaRequest runs one schema request. When sem is not nil, the binary
// runs holding one of its slots: sem bounds the processes running at once,
// and reading the answer is not part of that.
func (s *planner) schemaRequest(ctx context.Context, g *group, sem chan struct{}) (*tool.SchemaResponse, error) {
	res, err := s.runSchema(ctx, g, sem)
	if err != nil {
		return nil, err
	}
	return readSchema(g.command, res)
}

// runSchema runs a group's binary for a schema request, within a slot of
// sem when sem is not nil.
func (s *planner) runSchema(ctx context.Context, g *group, sem chan struct{}) (*invoke.Result, error) {
	if sem != nil {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		defer func() { <-sem }()
	}
	ctx, cancel := invoke.WithTimeout(ctx, g.timeout)
	defer cancel()
	spec := *g.spec // a schema request changes nothing: read-only, no network
	spec.Sandbox = g.spec.Sandbox.Probe()
	return invoke.Run(ctx, &spec, s.runner.request(tool.ActionSchema, nil))
}

// fetch returns a group's schema: from the session cache, else the
// persistent cache, else the binary (whose answer is then stored). sem,
// when not nil, bounds the binaries running at once (see schemaRequest).
func (s *planner) fetch(ctx context.Context, g *group, key cacheKey, sem chan struct{}) (*tool.SchemaResponse, error) {
	return s.schemas.Get(ctx, sessionKey(g, key), func() (*tool.SchemaResponse, error) {
		if resp, ok := s.disk.Load(g.key, s.root, key); ok {
			return resp, nil
		}
		resp, err := s.schemaRequest(ctx, g, sem)
		if err == nil {
			_ = s.disk.Store(g.key, s.root, key, g.spec.Command, resp) // the cache only saves time
		}
		return resp, err
	})
}

// sessionKey is the session cache's key of a group's schema answer.
func sessionKey(g *group, key cacheKey) string { return g.key + "\x00" + string(key) }

// built is what one entry yields: its own problems, in order, and the
// tools it produces, each checked.
type built struct {
	problems []catalog.Problem
	tools    []produced
}

// produced is one tool an entry produces, with the verdicts of the checks
// made on it before it is served (see [Source.check]).
type produced struct {
	e        *entry
	place    string
	cmdPlace string // where its command is written

	lint        *lintError // the definition LLM providers would reject
	cmdErr      *lintError // a command that cannot take its arguments
	cmdWarnings []commandWarning
	warnings    []commandWarning // what works but serves a model poorly
}

// resolve asks every group for its schema (bounded, concurrently) and
// builds the tools of every entry. An entry's tools are built as soon as
// its binary has answered, while the other binaries still run. The
// tools are then registered in plan order, so that the result does not
// depend on which binary answered first.
func (s *planner) resolve(ctx context.Context, p *plan) *resolution {
	r := &resolution{tools: map[string]*entry{}, keys: map[string]cacheKey{}, retry: map[string]bool{}, retryFor: map[string]string{}}
	answers := map[*group]*answer{}
	indexes := map[*group][]int{} // the entries of each asked group, by index in p.entries
	for _, g := range p.order {
		if g.asked {
			answers[g] = &answer{}
		}
	}
	for i, e := range p.entries {
		if g := p.groupOf[e]; answers[g] != nil {
			indexes[g] = append(indexes[g], i)
		}
	}
	builds := make([]*built, len(p.entries)) // each written by its group's goroutine, or below
	wg := s.askAll(ctx, p, answers, func(g *group) {
		for _, i := range indexes[g] {
			builds[i] = s.build(p.entries[i], g, answers[g])
		}
	})
	for i, e := range p.entries {
		if g := p.groupOf[e]; answers[g] == nil {
			builds[i] = s.build(e, g, nil) // declared in TOML: nothing to wait for
		}
	}
	wg.Wait()
	for g, a := range answers {
		r.keys[g.key] = a.key
		if a.err != nil && transient(a.err) {
			r.retry[sessionKey(g, a.key)] = true
		}
	}

	var all []produced
	for i, e := range p.entries {
		g := p.groupOf[e]
		if a := answers[g]; (e.Toolset || e.SelfDescribes()) && a.err != nil && transient(a.err) {
			r.retryFor[e.Name] = sessionKey(g, a.key)
		}
		r.problems = append(r.problems, builds[i].problems...)
		tools, held := s.pinned(e, builds[i].tools)
		r.problems = append(r.problems, held...)
		all = append(all, tools...)
	}

	byName := map[string]string{}
	for _, pr := range all {
		name := pr.e.t().Name
		if first, dup := byName[name]; dup {
			r.problems = append(r.problems, catalog.Problem{
				Tool: name, Place: pr.place,
				Err: fmt.Errorf("%w: %q is produced by %s (%s) and by %s (%s)", catalog.ErrDuplicate, name,
					pr.e.t().Provenance["entry"], pr.place, r.tools[name].t().Provenance["entry"], first),
				Fix: "rename one of them, or give the toolset a prefix or an exclude list",
			})
			continue
		}
		if pr.lint != nil {
			r.problems = append(r.problems, catalog.Problem{Tool: name, Place: pr.place, Err: pr.lint.err, Fix: pr.lint.fix})
			continue
		}
		if pr.cmdErr != nil {
			r.problems = append(r.problems, catalog.Problem{Tool: name, Place: pr.cmdPlace, Err: pr.cmdErr.err, Fix: pr.cmdErr.fix})
			continue
		}
		for _, w := range pr.cmdWarnings {
			r.problems = append(r.problems, catalog.Problem{Tool: name, Place: pr.cmdPlace, Warning: true, Err: errors.New(w.text), Fix: w.fix})
		}
		s.refuseOptions(pr.e)
		for _, w := range pr.warnings {
			r.problems = append(r.problems, catalog.Problem{Tool: name, Place: pr.place, Warning: true, Err: errors.New(w.text), Fix: w.fix})
		}
		byName[name] = pr.place
		r.tools[name] = pr.e
	}
	return r
}

// askAll asks the group of each answer for its schema, each in a
// goroutine of its own with at most s.concurrency binaries running at
// once, fills in the answers, and calls then(g) in g's goroutine once g
// has answered. The caller waits for the returned group.
func (s *planner) askAll(ctx context.Context, p *plan, answers map[*group]*answer, then func(g *group)) *sync.WaitGroup {
	var (
		wg       sync.WaitGroup
		sem      = make(chan struct{}, s.concurrency)
		progress sync.Mutex
		done     int
	)
	if s.progress != nil && len(answers) > 0 {
		s.progress(0, len(answers))
	}
	for _, g := range p.order {
		a := answers[g]
		if a == nil {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			a.key = s.statKey(g)
			a.resp, a.err = s.fetch(ctx, g, a.key, sem)
			if s.progress != nil {
				progress.Lock()
				done++
				s.progress(done, len(answers))
				progress.Unlock()
			}
			then(g)
		}()
	}
	return &wg
}

// build makes the tools of one entry from its group's answer (nil for an
// entry declared in TOML alone) and checks them. A binary that did not
// answer, or does not offer the entry's tool, is a problem instead.
func (s *planner) build(e *config.Entry, g *group, a *answer) *built {
	b := &built{}
	place, cmdPlace := e.Place.String(), posOr(e, "command")
	if e.Toolset {
		if a.err != nil {
			b.problems = append(b.problems, s.diagnose(e, g, a.err))
			return b
		}
		for _, t := range s.toolset(e, g, a.resp, &b.problems) {
			b.tools = append(b.tools, s.check(t, place, cmdPlace))
		}
		return b
	}
	var bin *tool.Definition
	if e.SelfDescribes() {
		if a.err != nil {
			b.problems = append(b.problems, s.diagnose(e, g, a.err))
			return b
		}
		bin = a.resp.Find(e.BinaryTool())
		if bin == nil {
			b.problems = append(b.problems, notOffered(e, g, a.resp))
			return b
		}
	}
	t, warnings := merge(e.Name, bin, e)
	for _, w := range warnings {
		b.problems = append(b.problems, catalog.Problem{Tool: e.Name, Place: posOr(e, w.key), Warning: true, Err: errors.New(w.text)})
	}
	var resp *tool.SchemaResponse
	if bin != nil {
		resp = a.resp
	}
	pr := s.check(s.bind(t, e, g, resp), place, cmdPlace)
	if p, ok := overridesWithoutBinary(e, g); ok && pr.lint == nil && pr.cmdErr == nil {
		b.problems = append(b.problems, p)
		pr.warnings = slices.DeleteFunc(pr.warnings, func(w commandWarning) bool { return w.fix == untypedFix })
	}
	b.tools = append(b.tools, pr)
	return b
}

// overridesWithoutBinary reports an entry whose parameters table reads as
// overrides of a self-describing binary's parameters (a parameter without a
// type, or a description splicing {{description}}) while the entry leaves
// self_describe unset. A parameters table then declares the tool's
// parameters in full and the binary is not asked (docs/config.md,
// "Parameters"). So the binary's other parameters and its description are
// dropped. The warning names self_describe = true as the fix.
func overridesWithoutBinary(e *config.Entry, g *group) (catalog.Problem, bool) {
	if e.SelfDescribe != nil || e.Toolset || e.JPForm || e.Parameters == nil {
		return catalog.Problem{}, false
	}
	var untyped []string
	for _, p := range slices.Sorted(maps.Keys(e.Parameters)) {
		if param := e.Parameters[p]; param != nil && len(param.Type) == 0 && param.Properties == nil {
			untyped = append(untyped, p)
		}
	}
	splices := e.Description != nil && strings.Contains(*e.Description, "{{description}}")
	if len(untyped) == 0 && !splices {
		return catalog.Problem{}, false
	}
	var why string
	switch {
	case len(untyped) == 1:
		why = fmt.Sprintf("parameter %q has no type", untyped[0])
	case len(untyped) > 1:
		why = fmt.Sprintf("parameters %s have no type", catalog.QuoteList(untyped))
	default:
		why = "the description splices {{description}}"
	}
	return catalog.Problem{Tool: e.Name, Place: posOr(e, "parameters"), Warning: true,
		Err: fmt.Errorf("%s, as an override of the binary's would; without self_describe = true the parameters table declares every parameter, so %q is not asked and its other parameters and its description are left out", why, g.command),
		Fix: fmt.Sprintf("if %q describes itself, add self_describe = true to [%s]: the table then overrides its parameters and keeps the others; if it does not, give each parameter a type (type = \"string\")", g.command, e.Key())}, true
}

// check runs the checks of a tool that do not depend on the other tools:
// the definition ([Source.lint], which also compiles its schema), then
// its command, then the warnings. Each runs only if the one before passed.
func (s *planner) check(e *entry, place, cmdPlace string) produced {
	pr := produced{e: e, place: place, cmdPlace: cmdPlace}
	if pr.lint = s.lint(e); pr.lint != nil {
		return pr
	}
	if pr.cmdErr, pr.cmdWarnings = lintCommand(e, e.t().Provenance["entry"]); pr.cmdErr != nil {
		return pr
	}
	accessErr, accessWarnings := s.compileAccess(e)
	if pr.cmdErr = accessErr; accessErr != nil {
		return pr
	}
	pr.cmdWarnings = append(pr.cmdWarnings, accessWarnings...)
	pr.warnings = lintWarnings(e.t())
	return pr
}

// bind completes a merged tool with how to run it.
func (s *planner) bind(t *catalog.Tool, e *config.Entry, g *group, resp *tool.SchemaResponse) *entry {
	name := e.BinaryTool()
	t.Source = e.Command.String()
	if name != t.Name || e.Toolset || e.Tool != "" {
		t.Source += fmt.Sprintf(" (tool %q)", name)
	}
	t.Provenance["entry"] = e.Key()
	spec := g.spec
	if allow := allowed(e.AllowOption); allow != nil {
		// The group's spec is shared by the entries with the same
		// invocation. Which arguments may be options is the entry's own.
		cp := *g.spec
		cp.AllowOption = allow
		spec = &cp
	}
	spec = withPolicy(spec, e)
	return newEntry(t, nil, &binding{
		host:      s.runner,
		spec:      spec,
		group:     g,
		name:      name,
		options:   maps.Clone(e.Options),
		timeout:   t.Timeout,
		protocol:  resp != nil,
		v2:        resp != nil && resp.Protocol == tool.Version2,
		longLived: resp != nil && resp.Protocol == tool.Version2 && resp.LongLived,
		secrets:   secretsOf(e),
	})
}

// toolset expands a [toolsets.NAME] entry into the tools of its binary.
func (s *planner) toolset(e *config.Entry, g *group, resp *tool.SchemaResponse, problems *[]catalog.Problem) []*entry {
	offered := resp.Names()
	for _, n := range e.Include {
		if !slices.Contains(offered, n) {
			*problems = append(*problems, catalog.Problem{Tool: e.Name, Place: posOr(e, "include"), Warning: true,
				Err: &catalog.Error{Op: string(tool.ActionSchema), Tool: e.Name, Source: g.command,
					Err: fmt.Errorf("schema: %w: include names %q; the binary offers %s", ErrToolNotOffered, n, catalog.QuoteList(offered))}})
		}
	}
	for _, n := range e.Exclude {
		if !slices.Contains(offered, n) {
			*problems = append(*problems, catalog.Problem{Tool: e.Name, Place: posOr(e, "exclude"), Warning: true,
				Err: &catalog.Error{Op: string(tool.ActionSchema), Tool: e.Name, Source: g.command,
					Err: fmt.Errorf("schema: %w: exclude names %q; the binary offers %s", ErrToolNotOffered, n, catalog.QuoteList(offered))}})
		}
	}
	var out []*entry
	for i := range resp.Tools {
		def := &resp.Tools[i]
		if e.Include != nil && !slices.Contains(e.Include, def.Name) || slices.Contains(e.Exclude, def.Name) {
			continue
		}
		// A toolset's overrides apply to each of its tools, except
		// parameters, which belong to one tool.
		one := *e
		one.Tool = def.Name
		one.Parameters = nil
		t, warnings := merge(e.Prefix+def.Name, def, &one)
		for _, w := range warnings {
			*problems = append(*problems, catalog.Problem{Tool: t.Name, Place: posOr(e, w.key), Warning: true, Err: errors.New(w.text)})
		}
		out = append(out, s.bind(t, &one, g, resp))
	}
	if len(e.Parameters) > 0 {
		*problems = append(*problems, catalog.Problem{Tool: e.Name, Place: posOr(e, "parameters"), Warning: true,
			Err: errors.New("a toolset's parameters are ignored: they belong to one tool"),
			Fix: fmt.Sprintf("override them in a [tools.NAME] entry with command = %q and tool = \"NAME\", and exclude NAME from the toolset", g.command)})
	}
	return out
}

func posOr(e *config.Entry, key string) string {
	if p, ok := e.Pos[key]; ok {
		return p.String()
	}
	return e.Place.String()
}

// notOffered reports an entry naming a tool its binary does not offer.
func notOffered(e *config.Entry, g *group, resp *tool.SchemaResponse) catalog.Problem {
	offered := resp.Names()
	err := &catalog.Error{Op: string(tool.ActionSchema), Tool: e.Name, Source: g.command,
		Err: fmt.Errorf("schema: %w: %q does not offer %q; it offers %s", ErrToolNotOffered, g.command, e.BinaryTool(), catalog.QuoteList(offered))}
	switch {
	case len(offered) == 0:
		err.Fix = "the binary declares no tools; check that it is the right command"
	case len(offered) == 1:
		err.Fix = fmt.Sprintf("set tool = %q in [%s]", offered[0], e.Key())
	default:
		err.Fix = fmt.Sprintf("set tool = one of %s in [%s], or serve them all with [toolsets.%s] command = %q",
			catalog.QuoteList(offered), e.Key(), e.Name, g.command)
	}
	if near := nearest(e.BinaryTool(), slices.Clone(offered)); near != "" && len(offered) > 1 {
		err.Fix = fmt.Sprintf("did you mean tool = %q? ", near) + err.Fix
	}
	return catalog.Problem{Tool: e.Name, Place: posOr(e, "tool"), Err: err, Fix: err.Fix}
}

// diagnose turns a failed schema request into a problem with a fix.
func (s *planner) diagnose(e *config.Entry, g *group, cause error) catalog.Problem {
	err := newError(e.Name, g.command, tool.ActionSchema, cause, s.fixFor(e, g, cause))
	return catalog.Problem{Tool: e.Name, Place: posOr(e, "command"), Err: err, Fix: err.Fix}
}

// fixFor says what the user can do about a binary that did not describe
// itself.
func (s *planner) fixFor(e *config.Entry, g *group, cause error) string {
	switch {
	case errors.Is(cause, catalog.ErrNotFound):
		if len(g.spec.Command) > 0 && strings.Contains(g.spec.Command[0], "/") {
			return fmt.Sprintf("check command in [%s]: relative paths are taken from the workspace root %s (or workdir); build the binary first if it is built from source", e.Key(), s.root)
		}
		return fmt.Sprintf("check command in [%s]: install the program or add its directory to PATH", e.Key())
	case errors.Is(cause, catalog.ErrNotExecutable):
		return notExecutableFix(cause, firstWord(g), e.Key())
	case errors.Is(cause, catalog.ErrTimeout):
		return fmt.Sprintf("a binary must answer the schema action quickly and without side effects; raise timeout in [%s], or declare its parameters in TOML so it is not asked:\n%s", e.Key(), parametersBlock(e))
	case errors.Is(cause, catalog.ErrOutputTooLarge):
		return "the binary must print only its JSON answer on stdout and log to stderr; upgrade it, or declare its parameters in TOML:\n" + parametersBlock(e)
	case errors.Is(cause, ErrExit), errors.Is(cause, ErrNotJSON), errors.Is(cause, tool.ErrNotSchema):
		if script, dir, ok := missingScript(g.spec, s.root); ok && errors.Is(cause, ErrExit) {
			return fmt.Sprintf("the script %s is missing: %s exited without running it (relative paths are taken from %s); create it, or fix command in [%s]",
				script, firstWord(g), dir, e.Key())
		}
		var answered *answeredError
		if errors.As(cause, &answered) && strings.Contains(strings.ToLower(answered.message), "protocol") {
			return fmt.Sprintf("the binary does not speak protocol v1 (the host sends %q); upgrade it, or declare its parameters in [%s]:\n%s",
				tool.Version, e.Key(), parametersBlock(e))
		}
		if e.Toolset {
			return fmt.Sprintf("a toolset needs a binary that describes itself (answers {\"context\":{\"action\":\"schema\"}} with {\"tools\":[…]}); upgrade the binary, or register its tools one by one as [tools.NAME] entries with a parameters table (see `toolhost schema -- %s`)", g.command)
		}
		if errors.Is(cause, ErrNotJSON) {
			return fmt.Sprintf("if %q is meant to describe itself, it must print only its JSON answer on stdout and log to stderr (`toolhost schema -- %s` shows what it prints); otherwise declare its parameters in [%s]:\n%s",
				g.command, g.command, e.Key(), parametersBlock(e))
		}
		return fmt.Sprintf("%q does not describe itself; either declare its parameters in [%s]:\n%s\nor upgrade the binary to answer the schema action (protocol v1; Go tools: sdk.Main). `toolhost schema -- %s` shows its answer.",
			g.command, e.Key(), parametersBlock(e), g.command)
	}
	return ""
}

// interpreters are the programs, version digits aside, whose first
// operand is a script even without an extension.
var interpreters = []string{"python", "node", "deno", "bun", "ruby", "perl", "bash", "sh", "zsh", "php", "lua", "Rscript", "julia", "tclsh"}

// scriptExts are the extensions of the scripts interpreters are given.
var scriptExts = []string{".py", ".js", ".mjs", ".cjs", ".ts", ".rb", ".pl", ".sh", ".bash", ".php", ".lua", ".r", ".jl", ".tcl"}

// missingScript returns the first argument of spec that names a script
// that does not exist, and the directory relative paths are taken from. A
// script is a file with a script's extension or, given to an interpreter,
// a relative path with a directory. An interpreter given a missing script
// exits with an error of its own ("can't open file", "Cannot find
// module").
func missingScript(spec *invoke.Spec, root string) (script, dir string, ok bool) {
	if spec.Shell || len(spec.Command) < 2 {
		return "", "", false
	}
	_, dir, _ = invoke.Executable(spec, root)
	interpreted := slices.Contains(interpreters, strings.TrimRight(filepath.Base(spec.Command[0]), "0123456789."))
	for _, arg := range spec.Command[1:] {
		if arg == "" || strings.HasPrefix(arg, "-") || strings.ContainsAny(arg, "{=") || strings.Contains(arg, "://") {
			continue
		}
		scripty := slices.Contains(scriptExts, strings.ToLower(filepath.Ext(arg))) ||
			interpreted && !filepath.IsAbs(arg) && strings.Contains(arg, "/")
		if !scripty {
			continue // a plain command's operand (touch out/x) is no script
		}
		p := arg
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		if _, err := os.Stat(p); errors.Is(err, fs.ErrNotExist) {
			return arg, dir, true
		}
	}
	return "", "", false
}

// parametersBlock is the TOML an entry needs to be used without asking
// its binary.
func parametersBlock(e *config.Entry) string {
	return fmt.Sprintf("\n    [%s.parameters.ARG]   # one table per argument\n    type = \"string\"\n    summary = \"What ARG is.\"\n\nor, for a command that takes no arguments, parameters = {} in [%s]\n", e.Key(), e.Key())
}

// notExecutableFix is the fix for a command that exists but cannot run:
// the one invoke found for the exact cause (chmod +x, a #! line, a
// directory given as the command), naming the entry to change.
func notExecutableFix(cause error, command, key string) string {
	var ierr *invoke.Error
	if errors.As(cause, &ierr) && ierr.Fix != "" {
		return fmt.Sprintf("%s; or fix command in [%s]", ierr.Fix, key)
	}
	return fmt.Sprintf("make %s executable (chmod +x) or fix command in [%s]", command, key)
}

func firstWord(g *group) string {
	if len(g.spec.Command) == 0 {
		return "the command"
	}
	return g.spec.Command[0]
}

// allowed lists the arguments an entry lets start with "-", sorted; nil
// when none.
func allowed(m map[string]bool) []string {
	if len(m) == 0 {
		return nil // the usual case: no allocation for each restored tool
	}
	var out []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if m[k] {
			out = append(out, k)
		}
	}
	return out
}

// refuseOptions makes the entry's argument check apply invoke's rule for
// values that would be read as options ([entry.Refuse]). Call runs that
// check before anything starts. So a refused value is an error outcome
// naming the argument, exactly as a value the schema rejects.
func (s *planner) refuseOptions(e *entry) {
	if e.args == nil {
		return
	}
	e.args = e.args.WithRefuse(e.Refuse) // a copy: the compiled schema is shared by entries with the same schema
}
