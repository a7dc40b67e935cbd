package binary

import (
	"reflect"
	"testing"
)

// TestValidateWarm: Validate answers for a tool of a catalog read from a
// persisted resolution, before any call compiled its input schema, as it
// does for the catalog that resolved it. Before this it dereferenced the
// entry's schema, not compiled yet, and panicked.
func TestValidateWarm(t *testing.T) {
	root, cache := t.TempDir(), t.TempDir()
	cfg := persistConfig("1")
	cold, _ := warmCat(t, cfg, root, cache)
	warm, persisted := warmCat(t, cfg, root, cache)
	if !persisted {
		t.Fatal("the second catalog was not read from the persisted resolution")
	}
	argsList := []map[string]any{{}, {"word": 1}, {"path": "-x", "extra": true}}
	for _, name := range cold.Names() {
		for _, args := range argsList {
			want, wantErr := cold.Validate(name, args)
			got, err := warm.Validate(name, args)
			if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(err, wantErr) {
				t.Errorf("Validate(%s, %v): warm %+v, %v; cold %+v, %v", name, args, got, err, want, wantErr)
			}
		}
	}
}
