package figures

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/config/trust"
	"github.com/toolhost/toolhost/internal/toolsearch"
	"github.com/toolhost/toolhost/internal/toolsearch/searchtest"
)

// BenchmarkToolSearch is one search_tools query over 10,000 synthetic
// tools (internal/toolsearch/searchtest), the index built once, against a plain
// scan of the 10,000 names for the query's words (what a client without
// an index would do, and finds less). Each iteration runs every query of
// searchtest.Queries; the metrics are per query. Goal ≤ 1 ms.
func BenchmarkToolSearch(b *testing.B) {
	docs := searchtest.Docs(10000)
	start := time.Now()
	ix := toolsearch.New(docs)
	index := time.Since(start)
	names := make([]string, len(docs))
	for i, d := range docs {
		names[i] = strings.ToLower(d.Name)
	}
	n := time.Duration(len(searchtest.Queries))
	m := measure(b, []string{"scan", "after"}, []func() time.Duration{
		func() time.Duration {
			start := time.Now()
			for _, q := range searchtest.Queries {
				words := strings.Fields(strings.ToLower(q))
				var found []string
				for _, name := range names {
					for _, w := range words {
						if strings.Contains(name, w) {
							found = append(found, name)
							break
						}
					}
				}
				_ = found
			}
			return time.Since(start) / n
		},
		func() time.Duration {
			start := time.Now()
			for _, q := range searchtest.Queries {
				ix.Search(toolsearch.Query{Text: q})
			}
			return time.Since(start) / n
		},
	})
	b.ReportMetric(float64(m["after"])/float64(m["scan"]), "after/scan")
	b.ReportMetric(ms(index), "index-ms") // after measure, whose ResetTimer clears the metrics
}

// BenchmarkToolSearchListing reports the bytes of the tools/list answer a
// model's client receives from `toolhost serve` with and without
// --tool-search, for the 1000-tool binary and for this repository's own
// catalog (.config/toolhost, its binaries built into bin/ by `make
// build`; left out with a note when they are not). Goal: with tool
// search ≤ 2 KiB, whatever the catalog.
func BenchmarkToolSearchListing(b *testing.B) {
	f := setup(b)
	warm(b, f, f.ws1000)
	v := f.variants[len(f.variants)-1] // "after"
	catalogs := map[string]string{"1000": f.ws1000}
	if repo, err := filepath.Abs("../.."); err == nil {
		if _, err := os.Stat(filepath.Join(repo, "bin", "word_count")); err != nil {
			b.Logf("this repository's catalog left out: its binaries are not built (run make build): %v", err)
		} else if ws, err := config.FindWorkspace(repo); err != nil {
			b.Logf("this repository's catalog left out: %v", err)
		} else if _, err := (&trust.Store{Dir: filepath.Join(f.dir, "data", "toolhost", "trust")}).Trust(ws.Root, ws.Sums()); err != nil {
			b.Fatal(err)
		} else {
			catalogs["repo"] = repo
			v.run(b, repo, "list")
		}
	}
	type pair struct{ off, on *session }
	served := map[string]pair{}
	for _, name := range slices.Sorted(maps.Keys(catalogs)) {
		served[name] = pair{v.serve(b, catalogs[name]), v.serve(b, catalogs[name], "--tool-search")}
	}
	size := map[string]int{}
	for b.Loop() {
		for name, p := range served {
			_, size["off-"+name] = p.off.call(b, "tools/list", `{}`)
			_, size["on-"+name] = p.on.call(b, "tools/list", `{}`)
		}
	}
	for name := range served {
		b.ReportMetric(float64(size["off-"+name])/1024, "off-"+name+"-KiB")
		b.ReportMetric(float64(size["on-"+name])/1024, "on-"+name+"-KiB")
		b.ReportMetric(float64(size["on-"+name])/float64(size["off-"+name]), "on/off-"+name)
	}
}
