package extractor

// fairScan bounds how many of the oldest fragments evict looks at for one
// of a source over its fair share, so that a flood of many sources costs
// no more per eviction than a flood of one.
const fairScan = 64

// fragments counts the live fragments (traces with nothing a convention
// reads yet) by source, the service.name of the resource that sent a
// trace's first spans, so that eviction takes a flooding source's
// fragments before another source's.
type fragments struct {
	bySource map[string]int
	total    int
}

func (f *fragments) add(source string) {
	if f.bySource == nil {
		f.bySource = make(map[string]int)
	}
	f.bySource[source]++
	f.total++
}

func (f *fragments) remove(source string) {
	if n := f.bySource[source]; n > 1 {
		f.bySource[source] = n - 1
	} else {
		delete(f.bySource, source)
	}
	f.total--
}

// evictable returns the fragment to evict first: among the fairScan
// oldest, the oldest whose source holds more than its fair share of the
// fragments (their number over the sources'), else the oldest. Nil
// without fragments.
func (f *fragments) evictable(oldest *Trace) *Trace {
	if len(f.bySource) < 2 {
		return oldest
	}
	share := f.total / len(f.bySource)
	t := oldest
	for range fairScan {
		if t == nil {
			break
		}
		if f.bySource[t.source] > share {
			return t
		}
		t = t.next
	}
	return oldest
}

// groupSource is the source of a trace first seen in g: the service.name
// of its first span's resource, "" when unknown.
func groupSource(g *group) string {
	for i := range g.spans {
		if r := g.spans[i].res; r != nil {
			return r.attrs.str("service.name")
		}
	}
	return ""
}
