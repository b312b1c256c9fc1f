package bleu

import (
	"errors"
	"fmt"

	"github.com/evalsidecar/evalsidecar/internal/intern"
)

// ErrTokenizerMismatch reports a Reference used with a scorer of another
// tokenizer than the one it was prepared with.
var ErrTokenizerMismatch = errors.New("bleu: reference prepared with another tokenizer")

// SentencePrepared scores one hypothesis against a prepared reference: it
// returns exactly what Sentence returns for the references r was prepared
// from. r must have been prepared with b's tokenizer.
func (b *BLEU) SentencePrepared(hyp string, r *Reference) (Score, error) {
	st, err := b.SegmentStatsPrepared(hyp, r)
	if err != nil {
		return Score{}, err
	}
	return b.Compute(st), nil
}

// SegmentStatsPrepared computes the statistics of one segment against a
// prepared reference: it returns exactly what SegmentStats returns for
// the references r was prepared from. Only the hypothesis is tokenized;
// r is read, never changed. r must have been prepared with b's tokenizer.
func (b *BLEU) SegmentStatsPrepared(hyp string, r *Reference) (Stats, error) {
	if r == nil {
		return Stats{}, errors.New("bleu: nil Reference")
	}
	if r.tokenizer != b.opts.Tokenizer {
		return Stats{}, fmt.Errorf("%w: %q, scorer uses %q", ErrTokenizerMismatch, r.tokenizer, b.opts.Tokenizer)
	}
	sc := b.hypScratch()
	defer b.putHypScratch(sc)
	sc.toks = b.tokenize(sc.toks[:0], rstrip(hyp))
	return r.count(sc, sc.toks), nil
}

// hypScratch is the per-call storage of scoring a hypothesis against a
// Reference. It is pooled; its counts are all zero between calls.
type hypScratch struct {
	toks   []string
	counts []int32 // by node: occurrences in the hypothesis so far
	ends   []int32 // node of the longest matched n-gram ending at each matched token
}

// hypScratch returns a scratch from b's pool.
func (b *BLEU) hypScratch() *hypScratch {
	sc, _ := b.hyps.Get().(*hypScratch)
	if sc == nil {
		sc = new(hypScratch)
	}
	return sc
}

// putHypScratch drops sc's references to the texts it read and returns it
// to b's pool.
func (b *BLEU) putHypScratch(sc *hypScratch) {
	clear(sc.toks)
	sc.toks = sc.toks[:0]
	b.hyps.Put(sc)
}

// count returns the statistics of the hypothesis tokens toks against r.
//
// A hypothesis n-gram that occurs in a reference has all its suffixes in
// the reference too, so the n-grams of the hypothesis found in r and
// ending at one token are the suffixes of the longest one, of order at
// most one more than that of the token before. That one is found by
// extending the longest suffix of the n-gram before, or failing that the
// shorter ones, by the token, with one lookup each in r's trie; its
// suffixes are then read from its node. A hypothesis n-gram's k-th
// occurrence matches while k is at most its highest count in one
// reference.
func (r *Reference) count(sc *hypScratch, toks []string) Stats {
	l := len(toks)
	st := Stats{SysLen: l, RefLen: closestRefLen(l, r.refLens)}
	for n := range MaxOrder {
		st.Total[n] = max(l-n, 0)
	}
	if need := len(r.nodes); len(sc.counts) < need {
		sc.counts = make([]int32, need)
	}
	counts := sc.counts
	nodes := r.nodes
	v := int32(r.vocab.Len())
	ends := sc.ends[:0]
	var correct [MaxOrder]int
	last := int32(-1) // node of the longest n-gram matched ending at the token before
	for _, tok := range toks {
		t, ok := r.vocab.Lookup(tok)
		if !ok {
			last = -1
			continue
		}
		x := t
		if last >= 0 {
			p := &nodes[last]
			for o := min(p.order, MaxOrder-1); o > 0; o-- {
				base := p.sfx[o-1]
				key := base
				if base >= v {
					key = ^(base - v)
				}
				if g, ok := r.grams.Lookup(intern.Pair(key, t)); ok {
					x = v + g
					break
				}
			}
		}
		last = x
		ends = append(ends, x)
		e := &nodes[x]
		for n, y := range e.sfx[:e.order] {
			c := counts[y]
			if c < nodes[y].refMax {
				correct[n]++
			}
			counts[y] = c + 1
		}
	}
	for n := range MaxOrder {
		st.Correct[n] = correct[n]
	}
	for _, x := range ends {
		e := &nodes[x]
		for _, y := range e.sfx[:e.order] {
			counts[y] = 0
		}
	}
	sc.ends = ends[:0]
	return st
}
