package suggest

// Nearest returns the candidate closest to s by edit distance, if that
// distance is at most maxDist. Otherwise it returns "". On a tie the
// earlier candidate wins. So callers that want a stable answer pass
// candidates sorted.
func Nearest(s string, candidates []string, maxDist int) string {
	best, bestD := "", maxDist+1
	for _, c := range candidates {
		if d := Distance(s, c); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// maxLen bounds the words Distance compares. Names and keys are short, and
// the cost is quadratic.
const maxLen = 64

// Distance returns the Levenshtein distance between a and b (insertions,
// deletions and substitutions of bytes). Words longer than 64 bytes are
// taken as far apart (distance 99).
func Distance(a, b string) int {
	if len(a) > maxLen || len(b) > maxLen {
		return 99
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
