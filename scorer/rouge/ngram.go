package rouge

import "github.com/evalsidecar/evalsidecar/internal/intern"

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
// grams is scratch space.
//
// The n-grams are numbered in grams (see gramNumbers) and counted in
// slices.
func scoreNgrams(grams *intern.Keys, target, pred []int32, n int) Score {
	grams.Reset((n - 1) * (len(target) + len(pred)))
	tg := gramNumbers(grams, target, n)
	pg := gramNumbers(grams, pred, n)
	counts := make([]int32, 2*grams.Len())
	tc, pc := counts[:grams.Len()], counts[grams.Len():]
	for _, g := range tg {
		tc[g]++
	}
	for _, g := range pg {
		pc[g]++
	}
	overlap := 0
	for _, g := range tg {
		if tc[g] > 0 { // each distinct n-gram once
			overlap += int(min(tc[g], pc[g]))
			tc[g] = 0
		}
	}
	return ngramScore(overlap, len(tg), len(pg))
}

// gramNumbers numbers the n-grams of ids in grams, order by order: the
// key of an n-gram is the key of its first n-1 tokens and its last token,
// where a token's key is its number and a longer n-gram's is its number
// bit-inverted (negative), so keys of different orders never meet.
func gramNumbers(grams *intern.Keys, ids []int32, n int) []int32 {
	if len(ids) < n {
		return nil
	}
	keys := append([]int32(nil), ids...)
	for k := 1; k < n; k++ {
		keys = keys[:len(ids)-k]
		for i := range keys {
			keys[i] = ^grams.ID(intern.Pair(keys[i], ids[i+k]))
		}
	}
	for i, k := range keys {
		keys[i] = ^k
	}
	return keys
}

func ngramScore(overlap, targetCount, predCount int) Score {
	p := float64(overlap) / float64(max(predCount, 1))
	r := float64(overlap) / float64(max(targetCount, 1))
	return newScore(p, r)
}
