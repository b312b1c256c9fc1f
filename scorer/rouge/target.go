package rouge

import (
	"sync"

	"github.com/evalsidecar/evalsidecar/internal/intern"
	"github.com/evalsidecar/evalsidecar/scorer/rouge/porter"
)

// Target is a target (reference) text tokenized once, to score many
// predictions against: its words are numbered once, and the prediction
// side of each run (see Scorer.TargetTokens) only looks its words up.
// What the scorers derive from the target alone (its stemmed form, counts,
// n-gram tables, LCS match masks, per-line data for rougeLsum) is built
// on first use and kept. A Target is immutable once built, apart from
// that data, which is built under sync.Once; it is safe for concurrent
// use by any number of goroutines and scorers.
type Target struct {
	text  string
	words wordTable  // the target's words
	plain targetForm // the unstemmed tokens, numbered in words

	stemOnce   sync.Once
	stems      intern.Strings // the stems of the target's words; only read once built
	stemOf     []int32        // word number -> stem number, or -1 for an empty stem
	emptyStems bool           // some word has an empty stem
	stemmed    targetForm     // the stemmed tokens, numbered in stems
}

// NewTarget tokenizes text (the reference of rouge-score's
// score(target, prediction)) for scoring predictions against it.
func NewTarget(text string) *Target {
	t := &Target{text: text}
	var v intern.Strings
	v.Reset(len(text) / 12)
	num := numbering{v: &v}
	t.plain.ids, t.plain.lines, _ = tokenizeLines(&num, text, new(scratch), 0)
	words := make([]string, v.Len())
	for id := range words {
		words[id] = v.String(int32(id))
	}
	t.words.build(words)
	t.plain.vocab = int32(len(words))
	return t
}

// Text returns the target text.
func (t *Target) Text() string { return t.text }

// stemmedForm returns the target's tokens with every token longer than
// three characters replaced by its Porter stem, built on first use.
func (t *Target) stemmedForm() *targetForm {
	t.stemOnce.Do(func() {
		t.stems.Reset(len(t.words.words))
		t.stemOf = make([]int32, len(t.words.words))
		for id, w := range t.words.words {
			if len(w) > 3 {
				w = porter.Stem(w)
			}
			t.stemOf[id] = -1
			if w != "" {
				t.stemOf[id] = t.stems.ID(w)
			} else {
				t.emptyStems = true
			}
		}
		t.stemmed.ids, t.stemmed.lines = remapLines(t.plain.ids, t.plain.lines, t.stemOf)
		t.stemmed.vocab = int32(t.stems.Len())
	})
	return &t.stemmed
}

// targetForm is the target's token list in one stemming, with the data
// each ROUGE type derives from it, built on first use. Its tokens are
// numbered below vocab, and every number below vocab occurs in them; a
// prediction token numbered vocab or above matches no target token.
type targetForm struct {
	ids   []int32
	lines []int32 // line k is ids[lines[k-1]:lines[k]], as in Tokens
	vocab int32

	countsOnce sync.Once
	counts     []int32 // occurrences by number

	gramsOnce [8]sync.Once
	grams     [8]gramTable // rouge2 … rouge9

	lcsOnce sync.Once
	lcs     lcsMasks

	lsumOnce sync.Once
	lsum     lsumTarget
}

// unigramCounts returns the occurrences of each token number.
func (f *targetForm) unigramCounts() []int32 {
	f.countsOnce.Do(func() {
		f.counts = make([]int32, f.vocab)
		for _, id := range f.ids {
			f.counts[id]++
		}
	})
	return f.counts
}

// gramTable returns the table of the target's n-grams, 2 <= n <= 9.
func (f *targetForm) gramTable(n int) *gramTable {
	f.gramsOnce[n-2].Do(func() { f.grams[n-2].build(f.ids, n) })
	return &f.grams[n-2]
}

// lcsMasks returns the bit-parallel LCS match masks of the target (see
// lcsMasks).
func (f *targetForm) lcsMasks() *lcsMasks {
	f.lcsOnce.Do(func() { f.lcs.build(f.ids, f.vocab) })
	return &f.lcs
}

// lsumData returns the target side of rougeLsum.
func (f *targetForm) lsumData() *lsumTarget {
	f.lsumOnce.Do(func() { f.lsum.build(f.ids, f.lines, f.vocab) })
	return &f.lsum
}
