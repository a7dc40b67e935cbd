//go:build !linux

package cli

import "os"

// noEcho is a no-op where toolhost cannot turn the terminal's echo off.
// A secret typed there is shown as it is typed.
func noEcho(*os.File) (restore func()) { return func() {} }
