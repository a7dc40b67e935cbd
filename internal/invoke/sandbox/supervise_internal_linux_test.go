package sandbox

import "testing"

// TestProcFD: a chmod path names the tool's descriptor only in the forms
// /proc resolves to one. Others are left to resolution, which refuses a
// /proc link.
func TestProcFD(t *testing.T) {
	tests := []struct {
		path string
		fd   int32
		ok   bool
	}{
		{"/proc/self/fd/3", 3, true},
		{"/proc/thread-self/fd/0", 0, true},
		{"/dev/fd/12", 12, true},
		{"/proc//self/./fd/3", 3, true},
		{"/proc/self/fd/3/", 0, false},
		{"/proc/self/fd/03", 0, false},
		{"/proc/self/fd/+3", 0, false},
		{"/proc/self/fd/-1", 0, false},
		{"/proc/self/fd/", 0, false},
		{"/proc/self/fd/99999999999", 0, false},
		{"/proc/self/cwd", 0, false},
		{"proc/self/fd/3", 0, false},
	}
	for _, tt := range tests {
		fd, ok := (&call{}).procFD(tt.path)
		if fd != tt.fd && ok || ok != tt.ok {
			t.Errorf("procFD(%q) = %d, %v; want %d, %v", tt.path, fd, ok, tt.fd, tt.ok)
		}
	}
}
