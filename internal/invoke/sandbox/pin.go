package sandbox

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	"github.com/toolhost/toolhost/tool"
)

// ErrMoved reports an access.fs rule whose path resolves elsewhere than
// it may: into .git or .config/toolhost through a link, or to another
// target than when the process first used it. The call does not run.
var ErrMoved = errors.New("an access.fs rule resolves elsewhere than allowed")

// Pins: a rule's path is resolved at each call. A tool that may write
// where the path's links are could retarget them between two calls. A
// vendor/fork link could be turned toward ~/.ssh, or an out/build
// directory replaced by a link to ../.git. So a rule of a trusted workspace file must
// resolve where it did when the person trusted the file
// ([tool.AccessFS.Targets]). Any other rule (the user's own file, an older trust
// record) is pinned on its first resolution in this process, keyed by
// workspace and rule. A call whose rule resolves elsewhere is refused,
// naming the rule.
var (
	pinMu sync.Mutex
	pins  = map[string]string{} // rootReal NUL home NUL rule path → the target first resolved
)

// pin checks the resolution a of rule r against the protected
// directories, then against the target recorded when its workspace was
// trusted, else against the target first resolved for it in this
// process, which it records when there is none.
func pin(r tool.AccessFS, a, rootReal, home string) error {
	written := lexicalAbs(r.Path, rootReal, home)
	for _, d := range []string{".git", ".config/toolhost"} {
		if g := filepath.Join(rootReal, d); within(g, a) && !within(g, written) {
			return &FixError{fmt.Errorf("%w: access.fs rule %q%s resolves through a link to %s, in the workspace's %s", ErrMoved, r.Path, where(r), a, d),
				fmt.Sprintf("no rule reaches %s through a link: a tool that could write there could rewrite history or register commands; remove the link at %s (a tool may have made it), or write the rule's path itself", d, written)}
		}
	}
	if trusted, ok := r.Targets[written]; ok {
		if trusted != a {
			return &FixError{fmt.Errorf("%w: access.fs rule %q%s now resolves to %s, not to %s as when the workspace was trusted: a link on its path changed", ErrMoved, r.Path, where(r), a, trusted),
				fmt.Sprintf("if a tool changed it, restore the link (ls -l %s) and keep links a tool may write out of access.fs rules; if you did, check where it leads, then run toolhost trust to record the new target (a running toolhost serve reads it when restarted)", written)}
		}
		return nil
	}
	key := rootReal + "\x00" + home + "\x00" + r.Path
	pinMu.Lock()
	defer pinMu.Unlock()
	first, ok := pins[key]
	if !ok {
		pins[key] = a
		return nil
	}
	if first != a {
		return &FixError{fmt.Errorf("%w: access.fs rule %q%s now resolves to %s, not to %s as when this toolhost first used it: a link on its path changed", ErrMoved, r.Path, where(r), a, first),
			fmt.Sprintf("if a tool changed it, restore the link (ls -l %s) and keep links a tool may write out of access.fs rules; if you did, restart toolhost to use the new target", written)}
	}
	return nil
}

// Resolve returns where the access.fs rule path leads with the workspace
// root and the home directory home. named is the absolute path it names,
// links not followed. target is where a call would grant it, links
// followed as far as the path exists. target is "" when the path cannot
// be placed (a "~/" path without a home). `toolhost trust` records them
// as [tool.AccessFS.Targets].
func Resolve(path, root, home string) (named, target string) {
	rootReal := realPath(root)
	if target = absRule(path, rootReal, home); target == "" {
		return "", ""
	}
	return lexicalAbs(path, rootReal, home), target
}

// where is " (file:line)" of a rule written in a file, "" for the
// profile's.
func where(r tool.AccessFS) string {
	if r.Pos.File == "" || r.Pos.File == profileWhere {
		return ""
	}
	return " (" + r.Pos.String() + ")"
}

// lexicalAbs is a rule's path made absolute without following links.
func lexicalAbs(p, rootReal, home string) string {
	switch {
	case p == "~" || strings.HasPrefix(p, "~/"):
		return filepath.Join(home, strings.TrimPrefix(p, "~"))
	case filepath.IsAbs(p):
		return filepath.Clean(p)
	}
	lex, _ := lexical(p)
	return filepath.Join(rootReal, lex)
}
