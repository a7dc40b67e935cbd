package httpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/face/httpserver"
	"github.com/toolhost/toolhost/resolver"
	"github.com/toolhost/toolhost/tool"
)

// BenchmarkListing measures what serving GET /tools and GET /api/v1/tools
// costs per request, computed afresh from a catalog of 50 tools each time,
// as a ratio against the baseline of json.Marshal of the catalog's List()
// (the least any listing does), measured in the same run.
func BenchmarkListing(b *testing.B) {
	cat, err := resolver.New(context.Background(), nil, &resolver.Options{Root: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	h := func(context.Context, map[string]any) (tool.Outcome, error) { return tool.Success("ok"), nil }
	for i := range 50 {
		schema := map[string]any{"type": "object", "properties": map[string]any{
			"path":  map[string]any{"type": "string", "description": "A path."},
			"limit": map[string]any{"type": "integer", "default": 10},
		}, "required": []any{"path"}, "additionalProperties": false}
		if err := cat.Register(catalog.Definition{Name: fmt.Sprintf("tool_%02d", i), Summary: "Does a thing.", InputSchema: schema,
			Annotations: map[string]any{"readOnlyHint": true}}, h); err != nil {
			b.Fatal(err)
		}
	}
	handler := httpserver.NewHandler(httpserver.FromCatalog(cat), nil)
	serve := func(path string) time.Duration {
		req := httptest.NewRequest("GET", path, nil)
		rec := httptest.NewRecorder()
		start := time.Now()
		handler.ServeHTTP(rec, req)
		d := time.Since(start)
		if rec.Code != 200 {
			b.Fatalf("GET %s: %d", path, rec.Code)
		}
		return d
	}
	var base, tools, manifest time.Duration
	for b.Loop() {
		start := time.Now()
		data, err := json.Marshal(cat.List())
		if err != nil {
			b.Fatal(err)
		}
		io.Discard.Write(data)
		base += time.Since(start)
		tools += serve("/tools")
		manifest += serve("/api/v1/tools")
	}
	b.ReportMetric(float64(base.Microseconds())/float64(b.N), "baseline-µs/op")
	b.ReportMetric(float64(tools)/float64(base), "tools/baseline")
	b.ReportMetric(float64(manifest)/float64(base), "manifest/baseline")
}
