package jsonl

import (
	"bytes"
	"sync"
	"time"

	"github.com/evalsidecar/evalsidecar/exporter/record"
	"github.com/evalsidecar/evalsidecar/scorer"
)

// batch is one evaluation encoded as JSON lines, all in buf: lineEnds[i]
// is the end offset (after '\n') of line i, which belongs to the stream
// streams[i] (an index into streamNames).
type batch struct {
	buf      bytes.Buffer
	lineEnds []int
	streams  []uint8
	failed   int // records that could not be encoded
}

func (b *batch) records() int { return len(b.lineEnds) }

// line returns line i without copying.
func (b *batch) line(i int) []byte {
	start := 0
	if i > 0 {
		start = b.lineEnds[i-1]
	}
	return b.buf.Bytes()[start:b.lineEnds[i]]
}

func (b *batch) reset() {
	b.buf.Reset()
	b.lineEnds, b.streams, b.failed = b.lineEnds[:0], b.streams[:0], 0
}

// maxPooledBatchBytes keeps unusually large batches out of the pool.
const maxPooledBatchBytes = 1 << 20

type batchPool struct{ p sync.Pool }

func (p *batchPool) get() *batch {
	if b, ok := p.p.Get().(*batch); ok {
		return b
	}
	return &batch{}
}

func (p *batchPool) put(b *batch) {
	if b.buf.Cap() > maxPooledBatchBytes {
		return
	}
	b.reset()
	p.p.Put(b)
}

// encode appends e's feedback, trajectory (unless e is a follow-up) or
// session, scores and decisions (stamped at) to b as JSON lines, each
// record written by its AppendJSON. A record that cannot be encoded is
// left out and counted in b.failed.
func encode(b *batch, e *scorer.Evaluation, at time.Time) {
	buf := b.buf.AvailableBuffer()
	add := func(stream int, r interface{ AppendJSON([]byte) ([]byte, error) }) {
		mark := len(buf)
		var err error
		if buf, err = r.AppendJSON(buf); err != nil {
			buf = buf[:mark]
			b.failed++
			return
		}
		buf = append(buf, '\n')
		b.lineEnds = append(b.lineEnds, b.buf.Len()+len(buf))
		b.streams = append(b.streams, uint8(stream))
	}
	for i := range e.Feedback {
		fr := record.Feedback(&e.Feedback[i])
		add(iFeedback, &fr)
	}
	if e.Session != nil && !e.FollowUp {
		sr := record.Session(e.Session)
		add(iSessions, &sr)
	} else if e.Session == nil && e.Trajectory != nil && !e.FollowUp {
		tr := record.Trajectory(e.Trajectory)
		add(iTrajectories, &tr)
	}
	for _, s := range record.ScoresAt(e, at) {
		add(iScores, &s)
	}
	for _, d := range record.DecisionsAt(e, at) {
		add(iDecisions, &d)
	}
	b.buf.Write(buf)
}
