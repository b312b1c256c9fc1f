package bleu

import (
	"errors"
	"fmt"

	"github.com/evalsidecar/evalsidecar/internal/intern"
	"github.com/evalsidecar/evalsidecar/internal/swar"
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
	return b.hypStats(hyp, r), nil
}

// hypStats returns the statistics of hyp, right-stripped and tokenized,
// against r.
func (b *BLEU) hypStats(hyp string, r *Reference) Stats {
	sc := b.hypScratch()
	defer b.putHypScratch(sc)
	var text string
	sc.spans, text = b.tokenize(sc.spans[:0], rstrip(hyp))
	return r.count(sc, sc.spans, text)
}

// hypScratch is the per-call storage of scoring a hypothesis against a
// Reference. It is pooled; what it holds between calls is not used.
type hypScratch struct {
	spans []span
	ends  []int32 // by hypothesis token: node of the longest reference n-gram ending there, or -1
	avail []int32 // by node: occurrences left to match
}

// hypScratch returns a scratch from b's pool.
func (b *BLEU) hypScratch() *hypScratch {
	sc, _ := b.hyps.Get().(*hypScratch)
	if sc == nil {
		sc = new(hypScratch)
	}
	return sc
}

// putHypScratch returns sc to b's pool.
func (b *BLEU) putHypScratch(sc *hypScratch) { b.hyps.Put(sc) }

// count returns the statistics of the hypothesis tokens toks, spans of
// text, against r.
//
// A hypothesis n-gram that occurs in a reference has all its suffixes in
// the reference too, so the n-grams of the hypothesis found in r and
// ending at one token are the suffixes of the longest one, of order at
// most one more than that of the token before. That one is found by
// extending the longest suffix of the n-gram before, or failing that the
// shorter ones, by the token, through r's trie; its suffixes are then
// read from its node. A hypothesis n-gram's k-th occurrence matches
// while k is at most its highest count in one reference.
func (r *Reference) count(sc *hypScratch, toks []span, text string) Stats {
	l := len(toks)
	st := Stats{SysLen: l, RefLen: closestRefLen(l, r.refLens)}
	for n := range MaxOrder {
		st.Total[n] = max(l-n, 0)
	}
	if cap(sc.ends) < len(toks) {
		sc.ends = make([]int32, len(toks))
	}
	ends := sc.ends[:len(toks)]
	r.walk(ends, toks, text)
	nodes := r.nodes
	if len(sc.avail) < len(nodes) {
		sc.avail = make([]int32, len(nodes))
	}
	avail := sc.avail[:len(nodes)]
	// Set the counts of every node when that is cheap next to the walk,
	// else only those of the nodes the hypothesis reaches.
	if len(nodes) <= 16*len(ends) {
		copy(avail, r.refMax)
	} else {
		for _, x := range ends {
			if x < 0 {
				continue
			}
			e := &nodes[x]
			for n := range e.order {
				y := e.sfx[n&(MaxOrder-1)]
				avail[y] = r.refMax[y]
			}
		}
	}
	var c1, c2, c3, c4 int
	for _, x := range ends {
		if x < 0 {
			continue
		}
		e := &nodes[x]
		switch e.order {
		case 4:
			if y := e.sfx[3]; avail[y] > 0 {
				avail[y]--
				c4++
			}
			fallthrough
		case 3:
			if y := e.sfx[2]; avail[y] > 0 {
				avail[y]--
				c3++
			}
			fallthrough
		case 2:
			if y := e.sfx[1]; avail[y] > 0 {
				avail[y]--
				c2++
			}
			fallthrough
		default:
			if y := e.sfx[0]; avail[y] > 0 {
				avail[y]--
				c1++
			}
		}
	}
	st.Correct = [MaxOrder]int{c1, c2, c3, c4}
	return st
}

// walk sets ends[k], for each token k of toks (spans of text), to the
// node of the longest n-gram of r ending at it (see count), or to -1 when
// the token is not in r. ends is as long as toks.
func (r *Reference) walk(ends []int32, toks []span, text string) {
	last := int32(-1) // the node for the token before, or -1
	for k := 0; k < len(toks); k++ {
		if last >= 0 && r.nodes[last].succN >= 0 {
			if k, last = r.follow(ends, toks, text, k, last); k == len(toks) {
				break
			}
		}
		sp := toks[k]
		lo, hi, mid := keyWords(text, sp)
		t := r.vocab.find(lo, hi, r.vocab.hash(lo, hi, mid, sp.end-sp.start), text[sp.start:sp.end])
		if t >= 0 && last >= 0 {
			t = r.extend(last, t)
		}
		last = t
		ends[k] = t
	}
}

// follow is walk's fast path. A text that follows a reference goes on as
// the n-gram before does there, so follow, from token k on, while each
// token is the only successor of the node before (last), sets ends[k] to
// that successor's node. It returns the first token it did not handle
// and the node for the token before.
func (r *Reference) follow(ends []int32, toks []span, text string, k int, last int32) (int, int32) {
	nodes := r.nodes
	ends = ends[:len(toks)]
	for ; k < len(toks); k++ {
		sp := toks[k]
		n := sp.end - sp.start
		var lo, hi uint64 // keyWords, written out
		switch {
		case n > 16:
			return k, last
		case n > 8:
			lo, hi = swar.Load64(text, sp.start), swar.Load64(text, sp.end-8)
		case sp.start+8 <= len(text):
			lo = swar.Load64(text, sp.start) & swar.LowBytes(n)
		default:
			return k, last
		}
		b := &nodes[last]
		if b.succLo != lo || b.succHi != hi || int(b.succN) != n {
			return k, last
		}
		last = b.succ
		ends[k] = last
	}
	return k, last
}

// extend returns the node of the longest n-gram of r that is a suffix of
// the n-gram of node p extended by token t.
func (r *Reference) extend(p, t int32) int32 {
	sfx := &r.nodes[p].sfx
	for o := min(r.nodes[p].order, MaxOrder-1); o > 0; o-- {
		b := sfx[o-1]
		switch r.nodes[b].succTok {
		case t:
			return r.nodes[b].succ
		case manySucc:
			if id, ok := r.grams.Lookup(intern.Pair(b, t)); ok {
				return r.gramNode[id]
			}
		}
	}
	return t
}
