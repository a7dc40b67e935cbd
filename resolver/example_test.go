package resolver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/resolver"
	"github.com/toolhost/toolhost/tool"
)

// A plain command with its parameters declared in TOML: nothing is asked,
// the arguments are templated into argv, and stdout is the content.
func ExampleNew() {
	cfg, err := config.Parse("tools.toml", []byte(`
[tools.shout]
command = "echo {{tool.arguments.text}}!"
summary = "Echo a text loudly."
[tools.shout.parameters.text]
type = "string"
summary = "What to echo."
`))
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	cat, err := resolver.New(ctx, cfg, &resolver.Options{Root: os.TempDir()})
	if err != nil {
		panic(err)
	}
	list, _ := json.Marshal(cat.List())
	fmt.Println(string(list))
	out, err := cat.Call(ctx, "shout", map[string]any{"text": "hello"}, nil)
	fmt.Println(out.Content, err)
	out, _ = cat.Call(ctx, "shout", nil, nil)
	fmt.Println(out.Message)
	// Output:
	// [{"name":"shout","description":"Echo a text loudly.","inputSchema":{"additionalProperties":false,"properties":{"text":{"description":"What to echo.","type":"string"}},"required":["text"],"type":"object"}}]
	// hello! <nil>
	// invalid arguments for tool "shout": missing required argument "text"
}

// An in-process tool beside the binary tools.
func ExampleCatalog_Register() {
	ctx := context.Background()
	cat, _ := resolver.New(ctx, nil, nil)
	cat.Subscribe(func() { fmt.Println("changed:", cat.Names()) })
	err := cat.Register(catalog.Definition{
		Name:    "add",
		Summary: "Add two integers.",
		InputSchema: map[string]any{
			"type": "object",
			"properties": map[string]any{
				"a": map[string]any{"type": "integer"},
				"b": map[string]any{"type": "integer", "default": 1},
			},
			"required": []any{"a"},
		},
	}, func(ctx context.Context, args map[string]any) (tool.Outcome, error) {
		// Every number is a json.Number: its digits as sent, never rounded.
		a, _ := args["a"].(json.Number).Int64()
		b, _ := args["b"].(json.Number).Int64()
		return tool.Success(fmt.Sprint(a + b)), nil
	})
	fmt.Println(err)
	out, _ := cat.Call(ctx, "add", map[string]any{"a": 41.0}, nil)
	fmt.Println(out.Content)
	id, _ := json.Marshal(cat.Identity())
	fmt.Println(string(id))
	// Output:
	// changed: [add]
	// <nil>
	// 42
	// {"server_id":"1ce38d7e-afee-514e-a691-9a1f63f7dccf","tools_count":1,"protocol_version":"1.0"}
}

// The README's embedding lines: a broken file is reported and left out,
// and the other files' tools are served.
func ExampleLoad() {
	root, _ := os.MkdirTemp("", "workspace")
	defer os.RemoveAll(root)
	conf := filepath.Join(root, ".config", "toolhost")
	_ = os.MkdirAll(conf, 0o755)
	_ = os.WriteFile(filepath.Join(conf, "a.toml"), []byte(`
[tools.shout]
command = "echo {{tool.arguments.text}}!"
summary = "Echo a text loudly."
[tools.shout.parameters.text]
type = "string"
pattern = "^[^-]"
`), 0o644)
	_ = os.WriteFile(filepath.Join(conf, "b.toml"), []byte("[tools.broken]\ncommand = 42\n"), 0o644)
	ctx := context.Background()

	cat, err := resolver.Load(ctx, &config.LoadOptions{Dir: root, NoUser: true, Trust: config.TrustAll},
		&resolver.Options{Root: root})
	if err != nil {
		panic(err) // no configuration could be read at all
	}
	defer cat.Close()
	for _, p := range cat.Report().Problems { // broken files and entries never hide the others
		fmt.Println(strings.TrimPrefix(p.Error(), root+"/"))
	}
	out, err := cat.Call(ctx, "shout", map[string]any{"text": "hello"}, nil)
	fmt.Println(cat.Names(), out.Content, err)
	// Output:
	// .config/toolhost/b.toml:2: tools.broken.command: want a string or an array of strings, got integer 42
	// [shout] hello! <nil>
}
