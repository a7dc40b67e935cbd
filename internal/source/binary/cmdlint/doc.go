// Package cmdlint is the part of the local-binary source's lint of a
// command that needs nothing of the catalog. [CodeSink] finds where a
// command hands a tool's argument to another interpreter as code. Such
// places are sh -c, eval, ssh, python3 -c, awk, watch, and the same behind
// env, xargs, find -exec and the like. It gives the warning and safe form
// for each. [TOMLQuote] gives the TOML spelling of a command for a fix.
// resolver's lint.go, which checks an entry's command as a whole, uses it.
package cmdlint
