package config_test

import (
	"fmt"

	"github.com/toolhost/toolhost/config"
)

func ExampleParse() {
	cfg, err := config.Parse("config.toml", []byte(`
[defaults]
timeout = "30s"

[tools.search]
command = "bin/fs --root 'my dir'"
source = "local.grep_files"
enable = false
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	e := cfg.Tools["search"]
	fmt.Printf("%q\n", e.Command.Args)
	fmt.Println(e.BinaryTool(), e.Enabled(), e.Timeout, e.SelfDescribes())
	fmt.Println("timeout from", e.Pos["timeout"])
	// Output:
	// ["bin/fs" "--root" "my dir"]
	// grep_files false 30s true
	// timeout from config.toml:3
}

func ExampleParse_error() {
	_, err := config.Parse("config.toml", []byte(`
[tools.greet]
comand = "bin/greet"
`))
	fmt.Println(err)
	// Output:
	// config.toml:3: unknown key "tools.greet.comand" (did you mean "command"?)
}
