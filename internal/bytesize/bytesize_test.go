package bytesize

import "testing"

func TestFormat(t *testing.T) {
	for _, tt := range []struct {
		n    int64
		want string
	}{
		{-1, "-1 B"}, {0, "0 B"}, {1023, "1023 B"}, {1024, "1 KiB"}, {1536, "1.5 KiB"},
		{256 << 10, "256 KiB"}, {1<<20 - 1, "1024 KiB"}, {1 << 20, "1 MiB"}, {16 << 20, "16 MiB"},
		{5<<20 + 1<<19, "5.5 MiB"}, {3 << 30, "3072 MiB"},
		{262143, "256 KiB"}, {5<<20 + 1, "5 MiB"}, {1610612, "1.5 MiB"},
	} {
		if got := Format(tt.n); got != tt.want {
			t.Errorf("Format(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}
