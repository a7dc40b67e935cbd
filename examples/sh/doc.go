// Package sh holds word_count.sh, a tool binary written in plain POSIX sh
// (sh, awk, wc; no jq, no SDK), which shows that wire protocol v1 is
// language-neutral, and count_lines_v2.sh, a protocol v2 tool in sh that
// prints progress and log events and a structured success by hand (its
// text is printed in docs/protocol.md, and a test keeps the two equal).
// `make build` installs them as bin/word_count and bin/count_lines_v2.
//
//	printf '%s' '{"protocol":"1","context":{"action":"schema","root":"'"$PWD"'","workspace_id":"w","conversation_id":"c"}}' | bin/word_count
//
// # The tool
//
// word_count counts the lines, words and bytes of its "text" argument
// ("what" picks one count). When no text is given it answers needs_input
// with a Text question whose id is "text"; the host runs it again with
// tool.answers.text set. format_arguments renders the call in one line.
//
// # Exit status
//
// 0 after any outcome or schema; 2, with an error outcome naming the
// problem on stdout, when the request cannot be understood (empty stdin,
// invalid JSON, another protocol version, unknown action or tool, an
// argument of the wrong type). The script logs to stderr only.
//
// Flow: stdin request → awk JSON flattener → sh dispatch → one JSON line on stdout.
//
// The Go code in this directory is only its test, which runs the script.
package sh
