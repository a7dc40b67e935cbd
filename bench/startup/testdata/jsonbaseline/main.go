// Command jsonbaseline is the second start-up baseline: a plain Go program
// that speaks the protocol by hand with encoding/json (decode the request,
// encode a fixed schema answer), the least any Go tool binary does.
package main

import (
	"encoding/json"
	"os"
)

func main() {
	var req struct {
		Context struct {
			Action string `json:"action"`
		} `json:"context"`
	}
	if err := json.NewDecoder(os.Stdin).Decode(&req); err != nil {
		os.Exit(2)
	}
	type param struct {
		Type    string `json:"type"`
		Summary string `json:"summary,omitempty"`
		Default any    `json:"default,omitempty"`
	}
	type def struct {
		Name       string            `json:"name"`
		Summary    string            `json:"summary"`
		Parameters map[string]*param `json:"parameters"`
	}
	json.NewEncoder(os.Stdout).Encode(map[string][]def{"tools": {{
		Name: "greet", Summary: "Greet someone by name.",
		Parameters: map[string]*param{"name": {Type: "string", Summary: "Who to greet."}, "greeting": {Type: "string", Default: "Hello"}},
	}}})
}
