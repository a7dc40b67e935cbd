package config

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestParseLargeFileIsFast(t *testing.T) {
	var b strings.Builder
	for i := range 2000 {
		b.WriteString("[tools.t" + strconv.Itoa(i) + "]\ncommand = \"bin/t --flag 'a b'\"\n")
		b.WriteString("description = \"\"\"\n" + strings.Repeat("long text line\n", 20) + "\"\"\"\n")
	}
	start := time.Now()
	cfg, err := Parse("big.toml", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.Tools["t1999"].Pos["description"].Line; got != 1999*24+3 {
		t.Errorf("line of t1999.description = %d, want %d", got, 1999*24+3)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Parse of %d bytes took %v", b.Len(), d)
	}
}
