package rouge

// scoreUnigrams is rouge1: clipped unigram overlap over the counts of both
// sides. P = overlap/max(#pred, 1), R = overlap/max(#target, 1).
func scoreUnigrams(target, pred []int32, vocabSize int) Score {
	counts := make([]int32, 2*vocabSize)
	tc, pc := counts[:vocabSize], counts[vocabSize:]
	for _, id := range target {
		tc[id]++
	}
	for _, id := range pred {
		pc[id]++
	}
	overlap := 0
	for id := range tc {
		overlap += int(min(tc[id], pc[id]))
	}
	return ngramScore(overlap, len(target), len(pred))
}

// scoreNgrams is rougeN for n >= 2: clipped n-gram overlap. A side with
// fewer than n tokens has no n-grams, so its precision or recall is 0.
func scoreNgrams(target, pred []int32, n int) Score {
	tc := ngramCounts(target, n)
	pc := ngramCounts(pred, n)
	overlap := 0
	for g, c := range tc {
		overlap += min(c, pc[g])
	}
	return ngramScore(overlap, max(len(target)-n+1, 0), max(len(pred)-n+1, 0))
}

func ngramScore(overlap, targetCount, predCount int) Score {
	p := float64(overlap) / float64(max(predCount, 1))
	r := float64(overlap) / float64(max(targetCount, 1))
	return newScore(p, r)
}

// ngram is an n-gram of token ids (n <= 9); unused slots are 0, and all
// n-grams of one map have the same n.
type ngram [9]int32

// ngramCounts counts the n-grams of ids.
func ngramCounts(ids []int32, n int) map[ngram]int {
	if len(ids) < n {
		return map[ngram]int{}
	}
	m := make(map[ngram]int, len(ids)-n+1)
	for i := 0; i+n <= len(ids); i++ {
		var g ngram
		copy(g[:], ids[i:i+n])
		m[g]++
	}
	return m
}
