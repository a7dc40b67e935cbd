package cli

import "io"

// ioStreams are where a command reads and writes, and how it writes there:
// the colours, and whether tool text is escaped for a terminal (escape.go).
// A command's run function writes through them only.
type ioStreams struct {
	stdout, stderr io.Writer
	stdin          io.Reader
	out, errOut    palette // colours for stdout and stderr

	// termOut and termErr: stdout and stderr are terminals. raw: the
	// command was given --raw.
	termOut, termErr, raw bool

	getenv func(string) string // COLUMNS, for the width of tables
}
