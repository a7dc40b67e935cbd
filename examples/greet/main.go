// Command greet is the smallest tool built with the toolhost sdk: it greets
// someone by name.
//
//	$ echo '{"context":{"action":"run"},"tool":{"name":"greet","arguments":{"name":"Ada"}}}' | greet
//	{"type":"success","content":"Hello, Ada!"}
package main

import (
	"context"

	"github.com/toolhost/toolhost/sdk"
)

// Input holds greet's parameters.
type Input struct {
	Name     string `json:"name" jsonschema:"description=Who to greet."`
	Greeting string `json:"greeting,omitempty" jsonschema:"description=The greeting word.,default=Hello"`
}

// Greet returns the greeting.
func Greet(ctx context.Context, in Input) (string, error) {
	return in.Greeting + ", " + in.Name + "!", nil
}

// Tool is the greet tool.
var Tool = sdk.New("greet", "Greet someone by name.", Greet, nil)

func main() { sdk.Main(Tool) }
