package extractor

import "sync"

// arenaPool keeps the record storage of released traces (their span list
// and the attribute arena of their first share) for the shares of later
// requests, so that steady intake reuses memory instead of allocating a
// request's worth of records each time. Storage is cleared when it comes
// back, so it holds no strings of released traces. It is bounded and safe
// for concurrent use; a nil pool allocates.
type arenaPool struct {
	mu    sync.Mutex
	spans [][]span
	attrs []attrs
}

const (
	// arenaPoolMax bounds the slices of each kind the pool keeps.
	arenaPoolMax = 256
	// arenaPoolProbe is how many of the newest slices a get looks at.
	arenaPoolProbe = 4
)

// fits reports whether a slice of capacity c may serve a request for n
// elements: large enough, and not so large that a small trace would pin a
// large block.
func fits(c, n int) bool { return c >= n && c <= 2*n+16 }

// getSpans returns an empty span slice with room for n.
func (p *arenaPool) getSpans(n int) []span {
	if p != nil && n > 0 {
		p.mu.Lock()
		for i := len(p.spans) - 1; i >= 0 && i >= len(p.spans)-arenaPoolProbe; i-- {
			if s := p.spans[i]; fits(cap(s), n) {
				last := len(p.spans) - 1
				p.spans[i] = p.spans[last]
				p.spans[last] = nil
				p.spans = p.spans[:last]
				p.mu.Unlock()
				return s[:0]
			}
		}
		p.mu.Unlock()
	}
	return make([]span, 0, n)
}

// getAttrs returns an empty attribute arena with room for n.
func (p *arenaPool) getAttrs(n int) attrs {
	if p != nil && n > 0 {
		p.mu.Lock()
		for i := len(p.attrs) - 1; i >= 0 && i >= len(p.attrs)-arenaPoolProbe; i-- {
			if a := p.attrs[i]; fits(cap(a), n) {
				last := len(p.attrs) - 1
				p.attrs[i] = p.attrs[last]
				p.attrs[last] = nil
				p.attrs = p.attrs[:last]
				p.mu.Unlock()
				return a[:0]
			}
		}
		p.mu.Unlock()
	}
	return make(attrs, 0, n)
}

// put takes back the storage of a released trace. Nothing may use it
// afterwards.
func (p *arenaPool) put(spans []span, arena attrs) {
	if p == nil {
		return
	}
	spans, arena = spans[:cap(spans)], arena[:cap(arena)]
	clear(spans)
	clear(arena)
	p.mu.Lock()
	if cap(spans) > 0 && len(p.spans) < arenaPoolMax {
		p.spans = append(p.spans, spans[:0])
	}
	if cap(arena) > 0 && len(p.attrs) < arenaPoolMax {
		p.attrs = append(p.attrs, arena[:0])
	}
	p.mu.Unlock()
}
