//go:build !linux

package trampoline
