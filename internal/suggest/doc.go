// Package suggest finds the word a user probably meant among the valid
// ones, by edit distance ("did you mean …?"). It is the one place that
// does so. It serves config keys (package config), and parameter and tool
// names in overrides (resolver).
//
//	known := []string{"command", "description", "timeout"} // sorted: ties go to the earlier
//	if s := suggest.Nearest("comand", known, 2); s != "" {
//		return fmt.Errorf("unknown key %q (did you mean %q?)", "comand", s)
//	}
//
// Flow: unknown word → [Nearest] (each candidate's [Distance]) → "did you mean".
//
// # Trade-offs
//
// [Distance] is the plain Levenshtein distance over bytes. It is quadratic
// in the word lengths. Words longer than 64 bytes are taken as far apart.
// So a pasted paragraph costs nothing. Callers choose how far a suggestion
// may be. The config decoder allows a third of the key's length.
package suggest
