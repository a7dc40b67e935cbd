package jsonclone

import (
	"reflect"
	"testing"
)

func TestMap(t *testing.T) {
	in := map[string]any{"a": map[string]any{"b": []any{1, map[string]any{"c": "d"}}}, "e": []string{"f"}, "g": 2.5}
	out := Map(in)
	if !reflect.DeepEqual(in, out) {
		t.Fatalf("Map = %v, want %v", out, in)
	}
	out["a"].(map[string]any)["b"].([]any)[1].(map[string]any)["c"] = "x"
	out["e"].([]string)[0] = "y"
	if in["a"].(map[string]any)["b"].([]any)[1].(map[string]any)["c"] != "d" || in["e"].([]string)[0] != "f" {
		t.Errorf("changing the copy changed the original: %v", in)
	}
	if Map(nil) != nil {
		t.Error("Map(nil) is not nil")
	}
}
