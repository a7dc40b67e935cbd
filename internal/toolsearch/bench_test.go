package toolsearch_test

import (
	"testing"

	"github.com/toolhost/toolhost/internal/toolsearch"
	"github.com/toolhost/toolhost/internal/toolsearch/searchtest"
)

// BenchmarkSearch10000 is one query over 10,000 synthetic tools, the
// index built once (goal ≤ 1 ms). bench/figures
// reports it in `make bench`.
func BenchmarkSearch10000(b *testing.B) {
	ix := toolsearch.New(searchtest.Docs(10000))
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		ix.Search(toolsearch.Query{Text: searchtest.Queries[i%len(searchtest.Queries)]})
		i++
	}
}

// BenchmarkNew10000 builds the index of 10,000 synthetic tools, as a
// change of the catalog does.
func BenchmarkNew10000(b *testing.B) {
	docs := searchtest.Docs(10000)
	b.ReportAllocs()
	for b.Loop() {
		toolsearch.New(docs)
	}
}
