package servers

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/internal/source/internal/cachefile"
	"github.com/toolhost/toolhost/internal/source/mcp"
	"github.com/toolhost/toolhost/tool"
)

// TestKeptToolFields: a kept tool carries every field of catalog.Tool a
// server's tool can have (all but Parameters and Dynamic, which a source
// never sets), through its JSON, numbers kept as written; a field added
// to catalog.Tool fails here until it is kept or listed as never set.
func TestKeptToolFields(t *testing.T) {
	never := map[string]bool{"Parameters": true, "Dynamic": true}
	want := &catalog.Tool{
		Definition: catalog.Definition{Name: "n", Summary: "s", InputSchema: map[string]any{"type": "object", "properties": map[string]any{
			"x": map[string]any{"type": "number", "default": json.Number("1.50")}}},
			Annotations: map[string]any{"readOnlyHint": true}, Title: "T", Icons: []catalog.Icon{{Src: "i.png"}},
			OutputSchema: map[string]any{"type": "object"}},
		Description: "d", Examples: "e", Category: "c", Tags: []string{"t"}, RequiresApproval: true, Timeout: time.Second,
		Enabled: true, Settings: tool.Settings{RateLimit: 3, MaxOutput: 4096}, Source: "mcp.s.n", Provenance: map[string]string{"entry": "toolsets.s"},
		Run: catalog.RunAsk, Answers: map[string]any{"q": "a"}, CancellationResponse: "no",
	}
	v := reflect.ValueOf(*want)
	for i := range v.NumField() {
		if f := v.Type().Field(i); !never[f.Name] && v.Field(i).IsZero() {
			t.Fatalf("the test sets no %s: set it, so that keeping it is tested", f.Name)
		}
	}
	kt, err := keepTool(want)
	if err != nil {
		t.Fatal(err)
	}
	data, err := EncodeKept([]Kept{{Name: "mcp.s", Tools: []KeptTool{kt}}})
	if err != nil {
		t.Fatal(err)
	}
	ks, err := DecodeKept(data)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := ks[0].Tools[0].Tool(); err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("kept tool mismatch (%v):\n got %+v\nwant %+v", err, got, want)
	}
	for _, bad := range []string{``, `{}`, `pending`, "[{\"tools\":[]}]\n", "[{\"name\":\"mcp.s\",\"tools\":[{\"name\":\"n\",\"detail\":[0,5]}]}]\n{}"} {
		if _, err := DecodeKept([]byte(bad)); err == nil {
			t.Errorf("DecodeKept(%q) = nil error", bad)
		}
	}
}

// FuzzDecodeKept: what a persisted resolution's header holds of the
// sources is outside input; any bytes decode or give an error, never a
// panic, and what decodes encodes again.
func FuzzDecodeKept(f *testing.F) {
	f.Add([]byte("[{\"name\":\"mcp.s\",\"validity\":{\"cache\":{\"path\":\"/c\",\"size\":3},\"expires\":\"2026-01-01T00:00:00Z\"},\"tools\":[{\"name\":\"n\",\"summary\":\"s\",\"detail\":[0,81]}]}]\n" +
		`{"name":"n","description":"s","inputSchema":{"type":"object"},"Source":"mcp.s.n"}`))
	f.Add([]byte(`pending`))
	f.Fuzz(func(t *testing.T, data []byte) {
		ks, err := DecodeKept(data)
		if err != nil {
			return
		}
		if _, err := EncodeKept(ks); err != nil {
			t.Errorf("EncodeKept of what decoded: %v", err)
		}
		for i := range ks {
			for _, kt := range ks[i].Tools {
				_, _ = kt.Tool()
			}
		}
	})
}

// TestSnapshot: the servers' snapshot loads under the key it was saved
// with, an empty one as no server; another key, a changed byte, a file of
// another format or none loads nothing; an unchanged snapshot is not
// written again.
func TestSnapshot(t *testing.T) {
	stem := filepath.Join(t.TempDir(), "resolutions", "w")
	kt, err := keepTool(&catalog.Tool{Definition: catalog.Definition{Name: "n", Summary: "s"}, Source: "mcp.s.n", Enabled: true})
	if err != nil {
		t.Fatal(err)
	}
	want := []Kept{{Name: "mcp.s", Validity: mcp.Validity{Cache: mcp.FileStamp{Path: "/c", Size: 3}, Expires: time.Unix(1e9, 0).UTC()}, Tools: []KeptTool{kt}}}
	if err := Save(stem, "k1", want); err != nil {
		t.Fatal(err)
	}
	got, ok := Load(stem, "k1")
	if !ok || !reflect.DeepEqual(got, want) {
		t.Fatalf("Load = %+v, %v; want %+v", got, ok, want)
	}
	fi, _ := os.Stat(stem + snapshotExt)
	if err := os.Chtimes(stem+snapshotExt, time.Unix(1, 0), time.Unix(1, 0)); err != nil {
		t.Fatal(err)
	}
	if err := Save(stem, "k1", want); err != nil {
		t.Fatal(err)
	}
	if again, _ := os.Stat(stem + snapshotExt); !again.ModTime().Equal(time.Unix(1, 0)) || fi.Mode().Perm() != 0o600 {
		t.Errorf("an unchanged snapshot was written again (mtime %v), or its mode is %v, want 0600", again.ModTime(), fi.Mode().Perm())
	}
	if _, ok := Load(stem, "k2"); ok {
		t.Error("Load under another key = true")
	}
	if err := Save(stem, "k1", nil); err != nil {
		t.Fatal(err)
	}
	if got, ok := Load(stem, "k1"); !ok || len(got) != 0 {
		t.Errorf("Load of an empty snapshot = %+v, %v; want none, true", got, ok)
	}
	raw, _ := os.ReadFile(stem + snapshotExt)
	for name, data := range map[string][]byte{
		"changed byte": append(bytes.Clone(raw[:len(raw)-1]), raw[len(raw)-1]^1),
		"old format":   []byte("[]\n"),
		"empty":        nil,
	} {
		if err := os.WriteFile(stem+snapshotExt, data, 0o600); err != nil {
			t.Fatal(err)
		}
		if got, ok := Load(stem, "k1"); ok {
			t.Errorf("%s: Load = %+v, true; want false", name, got)
		}
	}
	Forget(stem)
	if _, ok := Load(stem, "k1"); ok {
		t.Error("Load after Forget = true")
	}
}

// FuzzLoadSnapshot: the servers' snapshot file is outside input; any
// bytes load or not, never a panic, and what loads saves again to a file
// that loads the same.
func FuzzLoadSnapshot(f *testing.F) {
	f.Add(cachefile.Seal(snapshotMagic, snapshotVersion, []byte("k\n[]\n")))
	f.Add(cachefile.Seal(snapshotMagic, snapshotVersion, []byte("k\n[{\"name\":\"mcp.s\",\"tools\":[{\"name\":\"n\",\"detail\":[0,2]}]}]\n{}")))
	f.Add([]byte("pending"))
	stem := filepath.Join(f.TempDir(), "w")
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(stem+snapshotExt, data, 0o600); err != nil {
			t.Fatal(err)
		}
		ks, ok := Load(stem, "k")
		if !ok {
			return
		}
		if err := Save(stem, "k", ks); err != nil {
			t.Fatalf("Save of what loaded: %v", err)
		}
		if again, ok := Load(stem, "k"); !ok || len(again) != len(ks) || len(ks) > 0 && !reflect.DeepEqual(again, ks) {
			t.Errorf("saved again, it loads as %+v, %v; want %+v", again, ok, ks)
		}
	})
}
