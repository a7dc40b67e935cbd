package invoke_test

import (
	"fmt"

	"github.com/toolhost/toolhost/internal/invoke"
	"github.com/toolhost/toolhost/tool"
)

func ExampleRender() {
	req := &tool.Request{
		Protocol: tool.Version,
		Context:  tool.Context{Action: tool.ActionRun, Root: "/w", WorkspaceID: "w-1", ConversationID: "s-1"},
		Tool:     &tool.Call{Name: "wc", Arguments: map[string]any{"path": "a b.txt", "opts": map[string]any{"lines": true}}},
	}
	argv, err := invoke.Render([]string{"wc", "-l", "{{tool.arguments.path}}", "{{tool.arguments.opts}}", "{{tool.arguments.missing}}", "{{context}}"}, req)
	if err != nil {
		panic(err)
	}
	for _, a := range argv {
		fmt.Println(a)
	}
	// Output:
	// wc
	// -l
	// a b.txt
	// {"lines":true}
	// null
	// {"action":"run","root":"/w","workspace_id":"w-1","conversation_id":"s-1","access":null}
}
