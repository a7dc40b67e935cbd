// Package searchtest makes synthetic tool catalogs for the benchmarks of
// package toolsearch and bench/figures. It makes n tools with names,
// summaries, descriptions, parameters, tags and categories. They are drawn
// from fixed word lists. Every call gives the same n tools.
//
//	docs := searchtest.Docs(10000)
//	ix := toolsearch.New(docs)
//	for _, q := range searchtest.Queries { ix.Search(toolsearch.Query{Text: q}) }
package searchtest

import (
	"fmt"
	"strings"

	"github.com/toolhost/toolhost/internal/toolsearch"
)

var (
	domains = strings.Fields("git github docker kube aws gcp azure slack jira linear postgres mysql redis s3 fs http email calendar notion figma stripe sentry grafana npm cargo")
	verbs   = strings.Fields("get list create update delete search read write find run start stop restart deploy build test fetch send upload download sync merge close open render")
	nouns   = strings.Fields("file files issue issues branch commit pull_request container image pod service bucket object table row query message channel user users team project event events invoice payment alert dashboard package release log logs secret config")
	words   = strings.Fields("the a of to and for with from in on by this that each every returns result results given optional required default value values name names identifier id path paths text content page pages cursor limit offset filter filters sort order field fields status state time date range latest recent first last all any only when if else then which whose its their format json yaml markdown url link links workspace repository organization account region zone cluster namespace label labels tag tags owner author reviewer comment comments body title summary description size count total error errors warning retry timeout token permission access")
	params  = strings.Fields("path name id query limit offset cursor owner repo branch message title body url region namespace label tag format since until")
	tags    = strings.Fields("read write admin network storage vcs chat database cloud billing monitoring ci")
)

// Queries are free-text searches of the kind a model sends, over the
// words of [Docs].
var Queries = []string{
	"list open pull requests",
	"delete a file",
	"send a slack message to a channel",
	"docker container logs",
	"create invoice",
	"search issues by label",
	"restart kubernetes pod",
	"upload object to bucket",
	"read the latest commit of a branch",
	"grafana dashboard alerts",
}

// Docs returns n synthetic tools. Each name is unique, as it ends in the
// tool's number.
func Docs(n int) []toolsearch.Doc {
	docs := make([]toolsearch.Doc, n)
	x := uint64(0x9e3779b97f4a7c15) // xorshift state: the same catalog every time
	next := func(k int) int {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		return int(x % uint64(k))
	}
	for i := range docs {
		d, v, o := domains[next(len(domains))], verbs[next(len(verbs))], nouns[next(len(nouns))]
		var desc strings.Builder
		for j := range 20 + next(30) {
			if j > 0 {
				desc.WriteByte(' ')
			}
			desc.WriteString(words[next(len(words))])
		}
		var ps []toolsearch.Param
		for range 1 + next(4) {
			p := params[next(len(params))]
			ps = append(ps, toolsearch.Param{Name: p, Description: fmt.Sprintf("The %s of the %s %s.", p, d, strings.ReplaceAll(o, "_", " "))})
		}
		var ts []string
		for range 1 + next(3) {
			ts = append(ts, tags[next(len(tags))])
		}
		docs[i] = toolsearch.Doc{
			Name:        fmt.Sprintf("%s_%s_%s_%d", d, v, o, i),
			Summary:     fmt.Sprintf("%s %s %s in %s.", strings.ToUpper(v[:1])+v[1:], words[next(len(words))], strings.ReplaceAll(o, "_", " "), d),
			Description: desc.String(),
			Params:      ps,
			Tags:        ts,
			Category:    d,
		}
	}
	return docs
}
