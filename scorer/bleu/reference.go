package bleu

import "github.com/evalsidecar/evalsidecar/internal/intern"

// Reference is the reference side of a segment prepared once: its
// references tokenized and their n-gram statistics (each n-gram's highest
// count in one reference, the reference lengths) computed, for scoring
// any number of hypotheses with SegmentStatsPrepared and
// SentencePrepared. It records the tokenizer it was made with.
//
// A Reference is immutable once Prepare returns it and safe for
// concurrent use by any number of goroutines.
type Reference struct {
	tokenizer string
	refLens   []int
	// vocab numbers the reference tokens, grams their n-grams of orders 2
	// and up (see build).
	vocab vocab
	grams intern.Keys
	// nodes holds one entry per distinct reference n-gram: the unigram of
	// token t at t, the n-gram numbered g in grams at vocab.len()+g.
	nodes []node
	// refMax holds, by node, the n-gram's highest count in one reference.
	refMax []int32
}

// node is one reference n-gram.
type node struct {
	// sfx holds the nodes of the n-gram's suffixes of orders 1 to order:
	// sfx[order-1] is the n-gram itself.
	sfx   [MaxOrder]int32
	order int32
	// The n-grams one token longer that extend this one: when there is
	// one, succTok is its last token and succ its node; succTok is
	// noSucc when there is none and manySucc when there are several,
	// which are then found in grams. An n-gram of order MaxOrder, which
	// nothing extends, has those of its suffix one shorter, the one a
	// hypothesis goes on from after it.
	succTok int32
	succ    int32
	// succLo, succHi and succN are the words and the length of token
	// succTok when it has at most 16 bytes (see keyWords), so that a
	// hypothesis token is compared with it without being looked up;
	// else succN is -1.
	succN          int32
	succLo, succHi uint64
}

// Values of node.succTok other than a token.
const (
	noSucc   = -1
	manySucc = -2
)

// Prepare tokenizes refs with b's tokenizer and computes their n-gram
// statistics once. Each reference is right-stripped of whitespace; empty
// references are skipped, and ErrEmptyReference is returned when none is
// left, exactly when SegmentStats would return it for refs.
func (b *BLEU) Prepare(refs ...string) (*Reference, error) {
	bd := b.builder()
	defer b.putBuilder(bd)
	r := new(Reference)
	if !bd.build(r, b, refs) {
		return nil, ErrEmptyReference
	}
	return r, nil
}

// Tokenizer returns the name of the tokenizer r was made with.
func (r *Reference) Tokenizer() string { return r.tokenizer }

// key is the key under which node x is extended in grams: a unigram's
// token number, or a longer n-gram's number bit-inverted (negative), so
// that keys of different orders never meet.
func (r *Reference) key(x int32) int32 {
	if v := int32(r.vocab.len()); x >= v {
		return ^(x - v)
	}
	return x
}

// builder is the scratch storage of building a Reference. It is reused.
type builder struct {
	spans   []span
	ids     []int32 // the token numbers of every reference, one after another
	cur     []int32 // by node: count in the reference being read
	touched []int32 // nodes counted in the reference being read
}

// builder returns a builder from b's pool.
func (b *BLEU) builder() *builder {
	bd, _ := b.builders.Get().(*builder)
	if bd == nil {
		bd = new(builder)
	}
	return bd
}

// putBuilder returns bd to b's pool.
func (b *BLEU) putBuilder(bd *builder) { b.builders.Put(bd) }

// build fills r (whose storage it reuses) with the references refs as b
// tokenizes them, and reports whether any was non-empty.
//
// Every n-gram is a node. The n-grams ending at one token are found from
// those ending at the token before: the (n+1)-gram is numbered in grams
// under the pair (key of the n-gram before, token), so the numbering is
// a trie of the reference n-grams that a hypothesis can walk with
// lookups only.
func (bd *builder) build(r *Reference, b *BLEU, refs []string) bool {
	r.tokenizer = b.opts.Tokenizer
	r.refLens = r.refLens[:0]
	bytes := 0
	for _, s := range refs {
		bytes += len(s)
	}
	r.vocab.reset(bytes / 8)
	bd.ids = bd.ids[:0]
	for _, s := range refs {
		if s == "" {
			continue
		}
		var text string
		bd.spans, text = b.tokenize(bd.spans[:0], rstrip(s))
		for _, sp := range bd.spans {
			bd.ids = append(bd.ids, r.vocab.id(text, sp))
		}
		r.refLens = append(r.refLens, len(bd.spans))
	}
	if len(r.refLens) == 0 {
		r.vocab.reset(0)
		return false
	}
	v := int32(r.vocab.len())
	r.grams.Reset((MaxOrder - 1) * len(bd.ids))
	r.nodes = r.nodes[:0]
	r.refMax = r.refMax[:0]
	for t := range v {
		r.nodes = append(r.nodes, node{sfx: [MaxOrder]int32{t}, order: 1, succTok: noSucc})
		r.refMax = append(r.refMax, 0)
	}
	ids := bd.ids
	for k, l := range r.refLens {
		if k > 0 && len(bd.cur) < len(r.nodes) {
			bd.cur = append(bd.cur, make([]int32, len(r.nodes)-len(bd.cur))...)
		}
		var ends [MaxOrder]int32 // nodes of the n-grams ending at the token before
		for j, t := range ids[:l] {
			e := [MaxOrder]int32{t}
			m := int32(min(j+1, MaxOrder)) // order of the longest n-gram ending at t
			for n := int32(1); n < m; n++ {
				p := ends[n-1]
				g := v + r.grams.ID(intern.Pair(r.key(p), t))
				e[n] = g
				if int(g) == len(r.nodes) {
					r.nodes = append(r.nodes, node{sfx: e, order: n + 1, succTok: noSucc})
					r.refMax = append(r.refMax, 0)
					if pn := &r.nodes[p]; pn.succTok == noSucc {
						pn.succTok, pn.succ = t, g
					} else {
						pn.succTok = manySucc
					}
				}
			}
			ends = e
			if k == 0 {
				for _, x := range e[:m] {
					r.refMax[x]++
				}
				continue
			}
			if len(bd.cur) < len(r.nodes) {
				bd.cur = append(bd.cur, make([]int32, len(r.nodes)-len(bd.cur))...)
			}
			for _, x := range e[:m] {
				if bd.cur[x] == 0 {
					bd.touched = append(bd.touched, x)
				}
				bd.cur[x]++
			}
		}
		for _, x := range bd.touched {
			r.refMax[x] = max(r.refMax[x], bd.cur[x])
			bd.cur[x] = 0
		}
		bd.touched = bd.touched[:0]
		ids = ids[l:]
	}
	for i := range r.nodes {
		x := &r.nodes[i]
		if x.order == MaxOrder {
			b := &r.nodes[x.sfx[MaxOrder-2]]
			x.succTok, x.succ = b.succTok, b.succ
		}
		x.succN = -1
		if x.succTok >= 0 {
			if k := &r.vocab.keys[x.succTok]; k.n <= 16 {
				x.succLo, x.succHi, x.succN = k.lo, k.hi, int32(k.n)
			}
		}
	}
	return true
}
