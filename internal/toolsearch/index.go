package toolsearch

import (
	"math"
	"slices"
	"strings"
)

// Doc is what the index knows of one tool. Every field but Name may be
// empty.
type Doc struct {
	Name        string
	Title       string // a display name (protocol v2)
	Summary     string // the one-line summary
	Description string // the long text
	Params      []Param
	Tags        []string
	Category    string
}

// Param is a parameter of a tool. It has its name and its text, the
// summary or description.
type Param struct {
	Name, Description string
}

// Hit is one tool a search found. It has its name, summary and score.
// Higher is better, and only the order is meaningful.
type Hit struct {
	Name    string  `json:"name"`
	Summary string  `json:"summary"`
	Score   float64 `json:"score,omitempty"`
}

// Field weights: the weight of a term found in each field of a tool. See
// the package comment. A term found in several fields of one tool counts
// with the best.
const (
	weightName      = 10
	weightTitle     = 6
	weightSummary   = 5
	weightTag       = 5
	weightCategory  = 4
	weightParamName = 3
	weightDesc      = 2
	weightParamDesc = 1.5

	// prefixFactor is the share of a field's weight a query term gets for
	// a term it is only a prefix of.
	prefixFactor = 0.5
	// minPrefix is the length from which a query term also matches the
	// terms it is a prefix of.
	minPrefix = 3
)

// ExactNameBonus is added to the score of a tool whose name is the whole
// query. Names are compared by terms. So "read file", "ReadFile" and
// "read_file" name read_file. The bonus is more than a query of
// [MaxTerms] terms can score otherwise in a catalog of fewer than a
// billion tools. A term adds at most the name's weight times ln(1+tools),
// 10 × 20.7.
const ExactNameBonus = 10000

// posting is one tool holding a term. It has the best weight of the
// fields it holds it in.
type posting struct {
	doc    int32
	weight float32
}

// Index ranks a fixed set of tools for queries. It is read-only once
// built, so safe for concurrent use.
type Index struct {
	docs     []Doc       // sorted by name: a doc's number orders ties
	terms    []string    // the vocabulary, sorted
	postings [][]posting // postings[i]: the tools holding terms[i], by doc number
	idf      []float32   // idf[i] of terms[i]
	names    map[string][]int32
}

// New indexes docs. The index keeps docs (sorted by name). The caller
// must not modify them afterwards.
func New(docs []Doc) *Index {
	docs = slices.Clone(docs)
	slices.SortStableFunc(docs, func(a, b Doc) int { return strings.Compare(a.Name, b.Name) })
	ix := &Index{docs: docs, names: make(map[string][]int32, len(docs))}
	ids := map[string]int32{} // a term's number in byID
	var byID [][]posting      // each term's postings, in doc order (docs are added in order)
	var buf []byte
	var doc int32
	var w float32
	addTerm := func(t []byte) {
		id, ok := ids[string(t)] // no copy for a lookup
		if !ok {
			id = int32(len(byID))
			ids[string(t)] = id
			byID = append(byID, nil)
		}
		ps := byID[id]
		if n := len(ps); n > 0 && ps[n-1].doc == doc {
			ps[n-1].weight = max(ps[n-1].weight, w)
			return
		}
		byID[id] = append(ps, posting{doc, w})
	}
	add := func(d int32, text string, weight float32) {
		doc, w = d, weight
		buf = eachTerm(text, buf, addTerm)
	}
	for i, d := range docs {
		n := int32(i)
		add(n, d.Name, weightName)
		add(n, d.Title, weightTitle)
		add(n, d.Summary, weightSummary)
		for _, t := range d.Tags {
			add(n, t, weightTag)
		}
		add(n, d.Category, weightCategory)
		for _, p := range d.Params {
			add(n, p.Name, weightParamName)
			add(n, p.Description, weightParamDesc)
		}
		add(n, d.Description, weightDesc)
		key := nameKey(d.Name)
		ix.names[key] = append(ix.names[key], n)
	}
	ix.terms = make([]string, 0, len(ids))
	for t := range ids {
		ix.terms = append(ix.terms, t)
	}
	slices.Sort(ix.terms)
	ix.postings = make([][]posting, len(ix.terms))
	ix.idf = make([]float32, len(ix.terms))
	n := float64(len(docs))
	for i, t := range ix.terms {
		ps := slices.Clip(byID[ids[t]])
		ix.postings[i] = ps
		ix.idf[i] = float32(math.Log(1 + n/float64(len(ps))))
	}
	return ix
}

// Len returns the number of tools indexed.
func (ix *Index) Len() int { return len(ix.docs) }

// nameKey is a name or query as its terms, joined. It is what "is the
// whole query" compares.
func nameKey(s string) string { return strings.Join(terms(s, nil), " ") }

// Search returns the tools matching q, best first, at most q.Limit
// ([DefaultLimit] if zero). Equal scores are ordered by name. A query
// with no term (only punctuation) finds nothing.
func (ix *Index) Search(q Query) []Hit {
	limit := q.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	qterms := queryTerms(q.Text)
	if len(qterms) == 0 || len(ix.docs) == 0 {
		return nil
	}
	scores := make([]float32, len(ix.docs))
	var touched []int32 // the tools with a score, in the order they got one
	// cur is one query term's best contribution to each tool. curDocs are
	// the tools it has one for. A term counts once per tool, whatever number
	// of the tool's terms it matched.
	cur := make([]float32, len(ix.docs))
	var curDocs []int32
	seen := make(map[string]bool, len(qterms))
	for _, qt := range qterms {
		if seen[qt] {
			continue
		}
		seen[qt] = true
		consider := func(doc int32, v float32) {
			if cur[doc] == 0 {
				curDocs = append(curDocs, doc)
			}
			if v > cur[doc] {
				cur[doc] = v
			}
		}
		i, found := slices.BinarySearch(ix.terms, qt)
		if found {
			for _, p := range ix.postings[i] {
				consider(p.doc, p.weight*ix.idf[i])
			}
			i++
		}
		if len(qt) >= minPrefix {
			for ; i < len(ix.terms) && strings.HasPrefix(ix.terms[i], qt); i++ {
				f := prefixFactor * ix.idf[i]
				for _, p := range ix.postings[i] {
					consider(p.doc, p.weight*f)
				}
			}
		}
		// Each tool's score is the sum of its terms' contributions in the
		// query's order. The same floats give the same sum, run after run.
		for _, doc := range curDocs {
			if scores[doc] == 0 {
				touched = append(touched, doc)
			}
			scores[doc] += cur[doc]
			cur[doc] = 0
		}
		curDocs = curDocs[:0]
	}
	bonus := func(key string) {
		for _, doc := range ix.names[key] {
			if scores[doc] == 0 {
				touched = append(touched, doc)
			}
			scores[doc] += ExactNameBonus
		}
	}
	filtered, whole := strings.Join(qterms, " "), nameKey(q.Text)
	bonus(filtered)
	if whole != filtered { // "read a file" names read_file, and "how_to" names how_to
		bonus(whole)
	}
	top := make([]int32, 0, limit+1)
	better := func(a, b int32) bool { // a before b
		if scores[a] != scores[b] {
			return scores[a] > scores[b]
		}
		return a < b
	}
	for _, doc := range touched {
		if len(top) == limit && !better(doc, top[len(top)-1]) {
			continue
		}
		at, _ := slices.BinarySearchFunc(top, doc, func(x, target int32) int {
			if better(x, target) {
				return -1
			}
			return 1
		})
		top = slices.Insert(top, at, doc)
		if len(top) > limit {
			top = top[:limit]
		}
	}
	hits := make([]Hit, len(top))
	for i, doc := range top {
		d := ix.docs[doc]
		hits[i] = Hit{Name: d.Name, Summary: d.Summary, Score: math.Round(float64(scores[doc])*1000) / 1000}
	}
	return hits
}
