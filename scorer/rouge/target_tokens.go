package rouge

// TargetTokens returns the unstemmed Tokens of (t.Text(), prediction), as
// UnstemmedTokens(t.Text(), prediction) does, tokenizing only the
// prediction: its words are looked up in the target's numbering, which
// is only read, and the words the target lacks are numbered after the
// target's. The result is shared by every scorer of the pair like
// UnstemmedTokens' (StemTokens derives the stemmed tokens from it, with
// the target's stems built once), and ScoreTokens gives exactly
// Score(t.Text(), prediction) from it, scoring against the data t keeps.
// It is safe for concurrent use, with one Target shared by any number of
// goroutines.
func (s *Scorer) TargetTokens(t *Target, prediction string) *Tokens {
	sc := s.pool.get()
	defer s.pool.put(sc)
	num := numbering{table: &t.words, base: t.plain.vocab}
	out := &Tokens{targetText: t.text, predText: prediction, tgt: t, form: &t.plain, target: t.plain.ids, targetLines: t.plain.lines}
	out.pred, out.predLines, out.predCounts = tokenizeLines(&num, prediction, sc, int(t.plain.vocab))
	for _, id := range out.pred {
		if id < t.plain.vocab {
			out.predCounts[id]++
		}
	}
	out.unknown = num.unknown
	out.vocab = int(t.plain.vocab) + len(num.unknown)
	return out
}

// stemTokens is StemTokens of u, unstemmed tokens against t, with the
// stems of the words t lacks from c (which may be nil): the target's
// stemmed form is t's, and a prediction word is numbered as its stem is
// in it, or after its numbers when t has no such stem.
func (t *Target) stemTokens(u *Tokens, c *stemCache) *Tokens {
	f := t.stemmedForm()
	var unknown []int32 // unknown[k]: the number of the stem of u.unknown[k], or -1 to drop it
	drops := t.emptyStems
	if len(u.unknown) > 0 {
		unknown = make([]int32, len(u.unknown))
		for k, st := range c.stemAll(u.unknown) {
			id, ok := t.stems.Lookup(st)
			switch {
			case st == "":
				id, drops = -1, true
			case !ok:
				id = f.vocab
			}
			unknown[k] = id
		}
	}
	out := &Tokens{targetText: u.targetText, predText: u.predText, stemmed: true, tgt: t, form: f, target: f.ids, targetLines: f.lines, vocab: int(f.vocab) + 1}
	// one allocation for the numbers, the line ends and the counts
	buf := make([]int32, len(u.pred)+len(u.predLines)+int(f.vocab))
	pred, lines, counts := buf[:0:len(u.pred)], buf[len(u.pred):len(u.pred):len(u.pred)+len(u.predLines)], buf[len(u.pred)+len(u.predLines):]
	stemOf, words := t.stemOf, t.plain.vocab
	if !drops { // every token keeps its place
		pred, lines = pred[:len(u.pred)], append(lines, u.predLines...)
		for i, id := range u.pred {
			if id < words {
				id = stemOf[id]
			} else if id = unknown[id-words]; id < f.vocab {
				counts[id]++
			}
			pred[i] = id
		}
	} else {
		start := int32(0)
		for _, end := range u.predLines {
			before := len(pred)
			for _, id := range u.pred[start:end] {
				if id < words {
					id = stemOf[id]
				} else if id = unknown[id-words]; id >= 0 && id < f.vocab {
					counts[id]++
				}
				if id >= 0 {
					pred = append(pred, id)
				}
			}
			if len(pred) > before {
				lines = append(lines, int32(len(pred)))
			}
			start = end
		}
	}
	// the target words' counts go to their stems
	for w, n := range u.predCounts {
		if st := stemOf[w]; st >= 0 {
			counts[st] += n
		}
	}
	out.pred, out.predLines, out.predCounts = pred, lines, counts
	return out
}

// scoreTarget is ScoreTokens of tokens against a Target, in the scorer's
// stemming.
func (s *Scorer) scoreTarget(t *Tokens) Score {
	f := t.form
	switch {
	case s.typ == TypeLsum:
		sc := s.pool.get()
		defer s.pool.put(sc)
		if d := f.lsumData(); d.fits(t.pred, t.predLines, len(f.ids)) {
			return d.score(sc, f.ids, t.pred, t.predLines, t.predCounts)
		}
		return scoreLsum(sc, lines(t.target, t.targetLines), lines(t.pred, t.predLines), t.vocab)
	case s.typ == TypeL:
		if len(t.target) == 0 || len(t.pred) == 0 {
			return Score{}
		}
		t.lcsOnce.Do(func() {
			sc := s.pool.get()
			defer s.pool.put(sc)
			t.lcs = f.lcsLength(sc, t.pred)
		})
		l := t.lcs
		return newScore(float64(l)/float64(len(t.pred)), float64(l)/float64(len(t.target)))
	}
	if s.n == 1 {
		return f.unigrams(t.predCounts, len(t.pred))
	}
	sc := s.pool.get()
	defer s.pool.put(sc)
	return f.ngrams(sc, t.pred, s.n)
}

// unigrams is rouge1 of a prediction of n tokens, pc of each target
// word, against the target (see scoreUnigrams).
func (f *targetForm) unigrams(pc []int32, n int) Score {
	tc := f.unigramCounts()
	overlap := 0
	for id, c := range tc[:len(pc)] {
		overlap += int(min(c, pc[id]))
	}
	return ngramScore(overlap, len(f.ids), n)
}

// ngrams is rougeN, n >= 2, of pred against the target (see scoreNgrams).
func (f *targetForm) ngrams(sc *scratch, pred []int32, n int) Score {
	g := f.gramTable(n)
	pc := resize(sc.counts, len(g.slots))
	sc.counts = pc
	clear(pc)
	return ngramScore(g.overlap(pred, n, f.vocab, pc), g.total, max(len(pred)-n+1, 0))
}

// lcsLength is the LCS length of the target and pred (see lcsMasks), or
// lcsLength's when the target keeps no masks.
func (f *targetForm) lcsLength(sc *scratch, pred []int32) int {
	m := f.lcsMasks()
	if m.tooBig {
		return lcsLength(f.ids, pred)
	}
	var l int
	l, sc.cur = m.lcsLength(pred, f.vocab, sc.cur)
	return l
}
