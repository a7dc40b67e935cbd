// Command baseline is the start-up baseline: a plain Go program that prints a
// fixed schema answer without reading anything.
package main

import "os"

func main() {
	os.Stdout.WriteString(`{"tools":[{"name":"greet","summary":"Greet someone by name."}]}` + "\n")
}
