package rouge

import (
	"sync"

	"github.com/evalsidecar/evalsidecar/internal/intern"
)

// scratch is the working storage of one scoring call, reused across calls
// through a scorer's pool.
type scratch struct {
	words intern.Strings
	grams intern.Keys
	masks []bitLCS
	table lcsTable
	buf   []byte

	// tokenizing
	spans []tokenSpan
	alnum []uint64
	ends  []int32

	// scoring against a Target
	counts       []int32
	cur          []uint64
	marks        []uint64
	vs           []uint64
	events       []lsumEvent
	narrowEvents []narrowEvent
	narrow       []narrowState
	firsts       []int32
	last         []int32
	touched      []int32
}

// scratchPool hands out scratch; the zero value is ready to use.
type scratchPool struct{ p sync.Pool }

func (p *scratchPool) get() *scratch {
	if s, ok := p.p.Get().(*scratch); ok {
		return s
	}
	return new(scratch)
}

func (p *scratchPool) put(s *scratch) {
	if s.words.Len() > 0 {
		s.words.Reset(0) // drop the strings of the last texts
	}
	p.p.Put(s)
}

// resize returns s with length n, reusing its storage when it is large
// enough; the contents are not cleared.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}
