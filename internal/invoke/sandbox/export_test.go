package sandbox

// OwnDirs is ownDirs, for the external tests that check it against the
// packages owning each directory.
func OwnDirs() []string { return ownDirs() }
