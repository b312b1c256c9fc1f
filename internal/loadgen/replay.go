package loadgen

import (
	"encoding/binary"
	"math/rand/v2"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// Run is one replay of a capture: its spans under fresh trace ids, as
// single-span pieces in the capture's order, each still carrying its
// resource and scope.
type Run struct {
	Capture  string
	TraceIDs []pcommon.TraceID // the fresh ids, one per trace of the capture
	pieces   []ptrace.Traces
}

// newRun copies c with every trace id replaced by a fresh random one and
// every timestamp moved so that the run ends at end.
func newRun(c *Capture, rng *rand.Rand, end time.Time) *Run {
	ids := map[pcommon.TraceID]pcommon.TraceID{}
	last := pcommon.Timestamp(0)
	forEachSpan(c.Spans, func(s ptrace.Span) { last = max(last, s.EndTimestamp()) })
	shift := int64(pcommon.NewTimestampFromTime(end)) - int64(last)
	r := &Run{Capture: c.Name}
	rss := c.Spans.ResourceSpans()
	for i := range rss.Len() {
		rs := rss.At(i)
		for j := range rs.ScopeSpans().Len() {
			ss := rs.ScopeSpans().At(j)
			for k := range ss.Spans().Len() {
				piece := ptrace.NewTraces()
				prs := piece.ResourceSpans().AppendEmpty()
				rs.Resource().CopyTo(prs.Resource())
				prs.SetSchemaUrl(rs.SchemaUrl())
				pss := prs.ScopeSpans().AppendEmpty()
				ss.Scope().CopyTo(pss.Scope())
				pss.SetSchemaUrl(ss.SchemaUrl())
				s := pss.Spans().AppendEmpty()
				ss.Spans().At(k).CopyTo(s)
				old := s.TraceID()
				id, ok := ids[old]
				if !ok {
					binary.LittleEndian.PutUint64(id[:8], rng.Uint64())
					binary.LittleEndian.PutUint64(id[8:], rng.Uint64())
					ids[old] = id
					r.TraceIDs = append(r.TraceIDs, id)
				}
				s.SetTraceID(id)
				if s.StartTimestamp() != 0 {
					s.SetStartTimestamp(pcommon.Timestamp(int64(s.StartTimestamp()) + shift))
				}
				if s.EndTimestamp() != 0 {
					s.SetEndTimestamp(pcommon.Timestamp(int64(s.EndTimestamp()) + shift))
				}
				for e := range s.Events().Len() {
					ev := s.Events().At(e)
					ev.SetTimestamp(pcommon.Timestamp(int64(ev.Timestamp()) + shift))
				}
				r.pieces = append(r.pieces, piece)
			}
		}
	}
	return r
}

// forEachSpan calls f on every span of td.
func forEachSpan(td ptrace.Traces, f func(ptrace.Span)) {
	rss := td.ResourceSpans()
	for i := range rss.Len() {
		sss := rss.At(i).ScopeSpans()
		for j := range sss.Len() {
			spans := sss.At(j).Spans()
			for k := range spans.Len() {
				f(spans.At(k))
			}
		}
	}
}
