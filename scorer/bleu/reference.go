package bleu

import "github.com/evalsidecar/evalsidecar/internal/intern"

// Reference is the reference side of a segment prepared once: its
// references tokenized and their n-gram statistics (each n-gram's highest
// count in one reference, the reference lengths) computed, for scoring
// any number of hypotheses with SegmentStatsPrepared and
// SentencePrepared. It records the tokenizer it was made with.
//
// A Reference is immutable once Prepare returns it and safe for
// concurrent use by any number of goroutines. It keeps the reference
// texts.
type Reference struct {
	tokenizer string
	refLens   []int
	// vocab numbers the reference tokens.
	vocab vocab
	// nodes holds one entry per distinct reference n-gram: the unigram of
	// token t at t, then the longer ones in first-seen order.
	nodes []node
	// grams numbers the pairs (node, token) that extend a node with
	// several successors (see node.succTok); gramNode holds, by that
	// number, the node of the extension.
	grams    intern.Keys
	gramNode []int32
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

// child returns the node of node p extended by token t, the n-gram of
// order n whose suffixes of the orders below are sfx, adding it when it
// is new. The first extension of a node is kept in the node; when a
// second one comes, both are numbered in grams.
func (r *Reference) child(p, t int32, sfx *[MaxOrder]int32, n int32) int32 {
	switch pt := r.nodes[p].succTok; pt {
	case t:
		return r.nodes[p].succ
	case noSucc:
		g := r.addNode(sfx, n)
		r.nodes[p].succTok, r.nodes[p].succ = t, g
		return g
	case manySucc:
		if id := r.grams.ID(intern.Pair(p, t)); int(id) < len(r.gramNode) {
			return r.gramNode[id]
		}
	default:
		// one other successor so far
		r.grams.ID(intern.Pair(p, pt))
		r.gramNode = append(r.gramNode, r.nodes[p].succ)
		r.nodes[p].succTok = manySucc
		r.grams.ID(intern.Pair(p, t))
	}
	g := r.addNode(sfx, n)
	r.gramNode = append(r.gramNode, g)
	return g
}

// addNode adds the n-gram of order n whose suffixes of the orders below
// are sfx and returns its node.
func (r *Reference) addNode(sfx *[MaxOrder]int32, n int32) int32 {
	g := int32(len(r.nodes))
	x := node{sfx: *sfx, order: n, succTok: noSucc}
	x.sfx[n-1] = g
	r.nodes = append(r.nodes, x)
	r.refMax = append(r.refMax, 0)
	return g
}

// builder is the scratch storage of building a Reference. It is reused.
type builder struct {
	spans   []span
	ids     []int32 // the token numbers of every reference, one after another
	cur     []int32 // by node: count in the reference being read; all 0 between references
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
// those ending at the token before, extended by the token (see child):
// the nodes form a trie of the reference n-grams that a hypothesis can
// walk with lookups only.
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
	r.grams.Reset(len(bd.ids) / 2)
	r.gramNode = r.gramNode[:0]
	// at most one n-gram of each order ends at each token
	if most := int(v) + (MaxOrder-1)*len(bd.ids); cap(r.nodes) < most {
		r.nodes = make([]node, 0, most)
		r.refMax = make([]int32, 0, most)
	}
	r.nodes = r.nodes[:0]
	r.refMax = r.refMax[:0]
	for t := range v {
		r.nodes = append(r.nodes, node{sfx: [MaxOrder]int32{t}, order: 1, succTok: noSucc})
		r.refMax = append(r.refMax, 0)
	}
	if most := cap(r.nodes); len(r.refLens) > 1 && len(bd.cur) < most {
		bd.cur = make([]int32, most)
	}
	ids := bd.ids
	for k, l := range r.refLens {
		var ends [MaxOrder]int32 // nodes of the n-grams ending at the token before
		for j, t := range ids[:l] {
			e := [MaxOrder]int32{t}
			m := int32(min(j+1, MaxOrder)) // order of the longest n-gram ending at t
			for n := int32(1); n < m; n++ {
				e[n] = r.child(ends[n-1], t, &e, n+1)
			}
			ends = e
			if k == 0 {
				for _, x := range e[:m] {
					r.refMax[x]++
				}
				continue
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
