package binary

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/internal/invoke"
	"github.com/toolhost/toolhost/internal/invoke/sandbox"
	"github.com/toolhost/toolhost/tool"
)

// AskSchema asks any command for its schema, as `toolhost schema -- CMD`
// does: command holds argv tokens (no shell), run in root ("" for the
// current directory) with the default timeout. Nothing is cached. A
// failure is a [*catalog.Error] wrapping one of package catalog's error
// variables (catalog.ErrNotFound…), with the fix.
func AskSchema(ctx context.Context, command []string, root string) (*tool.SchemaResponse, error) {
	return AskSchemaFor(ctx, "", command, root)
}

// AskSchemaFor is [AskSchema] for the entry key will name, as
// `toolhost add` does: a fix that shows TOML shows that table. key is
// what [config.Entry.Key] returns, "" for a placeholder.
func AskSchemaFor(ctx context.Context, key string, command []string, root string) (*tool.SchemaResponse, error) {
	if key == "" {
		key = "tools.NAME"
	}
	if root == "" {
		root = getwd()
	}
	if abs, err := filepath.Abs(root); err == nil {
		root = abs
	}
	spec := &invoke.Spec{Command: command, Sandbox: (*sandbox.Policy)(nil).Probe()} // changes nothing: read-only, no network
	ctx, cancel := invoke.WithTimeout(ctx, DefaultTimeout)
	defer cancel()
	req := &tool.Request{Protocol: tool.Version, Context: tool.Context{Action: tool.ActionSchema, Root: root, WorkspaceID: "w-schema", ConversationID: "s-schema"}}
	res, err := invoke.Run(ctx, spec, req)
	var resp *tool.SchemaResponse
	if err == nil {
		resp, err = readSchema(strings.Join(command, " "), res)
	}
	if err == nil {
		return resp, nil
	}
	display := strings.Join(command, " ")
	var fix string
	script, dir, hasMissing := missingScript(spec, root) // an interpreter's exit names it its own way
	switch {
	case errors.Is(err, catalog.ErrTimeout):
		fix = fmt.Sprintf("a binary must answer the schema action at once and without side effects (toolhost waits at most %gs); if %q does not speak the protocol, register it with its parameters declared in TOML", DefaultTimeout.Seconds(), display)
	case errors.Is(err, ErrExit) && hasMissing:
		fix = fmt.Sprintf("the script %s is missing: %s exited without running it (relative paths are taken from %s); create it, or fix the command", script, command[0], dir)
	case errors.Is(err, ErrExit), errors.Is(err, ErrNotJSON), errors.Is(err, tool.ErrNotSchema), errors.Is(err, catalog.ErrOutputTooLarge):
		fix = fmt.Sprintf("%q does not describe itself; register it with its parameters declared in TOML:\n\n    [%s]\n    command = %s\n    [%s.parameters.ARG]   # one table per argument\n    type = \"string\"\n    summary = \"What ARG is.\"\n\nor, for a command that takes no arguments, parameters = {} in [%s]\n\nor upgrade the binary to answer the schema action (protocol v1; Go tools: sdk.Main)", display, key, config.CommandValue(command), key, key)
	}
	return nil, newError("", display, tool.ActionSchema, err, fix)
}
