package sandbox

// OwnDirs is ownDirs, for the external tests that check it against the
// packages owning each directory.
func OwnDirs() []string { return ownDirs() }

// SetSupervisorForTest turns the supervisor off (or on again) for the
// starts that follow, until the returned function restores it.
func SetSupervisorForTest(on bool) (restore func()) {
	old := supervisorOff.Swap(!on)
	return func() { supervisorOff.Store(old) }
}
