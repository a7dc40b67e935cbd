package sandbox

// OwnDirs is ownDirs, for the external tests that check it against the
// packages owning each directory.
func OwnDirs() []string { return ownDirs() }

// Supervised is supervised, for the external tests of the explanations.
func Supervised() bool { return supervised() }
