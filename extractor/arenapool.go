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
	if p == nil || n <= 0 {
		return make([]span, 0, n)
	}
	return takeFit(&p.mu, &p.spans, n)
}

// getAttrs returns an empty attribute arena with room for n.
func (p *arenaPool) getAttrs(n int) attrs {
	if p == nil || n <= 0 {
		return make(attrs, 0, n)
	}
	return takeFit(&p.mu, &p.attrs, n)
}

// takeFit removes from list, holding mu, the first of its arenaPoolProbe
// newest slices that fits n and returns it emptied; else a new slice.
func takeFit[S ~[]E, E any](mu *sync.Mutex, list *[]S, n int) S {
	mu.Lock()
	l := *list
	for i := len(l) - 1; i >= 0 && i >= len(l)-arenaPoolProbe; i-- {
		if s := l[i]; fits(cap(s), n) {
			last := len(l) - 1
			l[i] = l[last]
			l[last] = nil
			*list = l[:last]
			mu.Unlock()
			return s[:0]
		}
	}
	mu.Unlock()
	return make(S, 0, n)
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
