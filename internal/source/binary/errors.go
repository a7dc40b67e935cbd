package binary

import "errors"

// Errors that say why a binary gave no usable answer. Any source may also
// give catalog.ErrNotFound, catalog.ErrTimeout and the like. An answer
// that is JSON but no schema response is tool.ErrNotSchema. Callers test
// them with errors.Is. Each comes wrapped in a *catalog.Error that carries
// the cause and the fix.
var (
	// ErrExit: the binary exited with a non-zero status without answering
	// a schema request. The message carries the tail of its stderr. A run
	// that does so is no error: the call's outcome is an error outcome
	// with the exit status and the stderr tail.
	ErrExit = errors.New("tool failed")
	// ErrNotJSON: the binary's answer to "schema" is not JSON.
	ErrNotJSON = errors.New("stdout is not JSON")
	// ErrProtocol: a binary that described itself (answered schema) then
	// exited 0 from run or format_arguments without printing an outcome.
	ErrProtocol = errors.New("protocol error")
	// ErrToolNotOffered: the binary answered, but does not offer the tool
	// the entry names. The message lists the names it offers.
	ErrToolNotOffered = errors.New("tool not offered by the binary")
)
