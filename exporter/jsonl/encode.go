package jsonl

import (
	"bytes"
	"sync"
	"time"

	"github.com/evalsidecar/evalsidecar/exporter/record"
	"github.com/evalsidecar/evalsidecar/scorer"
)

// batch is one evaluation encoded as JSON lines: at most one trajectory
// line (a session line when session is set), then score lines, then
// judge-ledger decision lines, all in buf. lineEnds[i] is the end offset
// (after '\n') of line i; the first trajLines lines are trajectories (or
// the session) and the last decLines are decisions.
type batch struct {
	buf       bytes.Buffer
	lineEnds  []int
	trajLines int
	decLines  int
	session   bool
	feedback  bool // every line is a feedback record
	failed    int  // records that could not be encoded
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
	b.lineEnds = b.lineEnds[:0]
	b.trajLines = 0
	b.decLines = 0
	b.session = false
	b.feedback = false
	b.failed = 0
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

// encode appends e's trajectory (unless e is a follow-up) or session,
// scores and decisions (stamped at), or its feedback, to b as JSON lines, each record
// written by its AppendJSON. A record that cannot be encoded is left out
// and counted in b.failed.
func encode(b *batch, e *scorer.Evaluation, at time.Time) {
	buf := b.buf.AvailableBuffer()
	add := func(r interface{ AppendJSON([]byte) ([]byte, error) }) bool {
		mark := len(buf)
		var err error
		if buf, err = r.AppendJSON(buf); err != nil {
			buf = buf[:mark]
			b.failed++
			return false
		}
		buf = append(buf, '\n')
		b.lineEnds = append(b.lineEnds, b.buf.Len()+len(buf))
		return true
	}
	for i := range e.Feedback {
		fr := record.Feedback(&e.Feedback[i])
		add(&fr)
		b.feedback = true
	}
	if e.Session != nil && !e.FollowUp {
		sr := record.Session(e.Session)
		if add(&sr) {
			b.trajLines, b.session = 1, true
		}
	} else if e.Session == nil && e.Trajectory != nil && !e.FollowUp {
		tr := record.Trajectory(e.Trajectory)
		if add(&tr) {
			b.trajLines = 1
		}
	}
	for _, s := range record.ScoresAt(e, at) {
		add(&s)
	}
	for _, d := range record.DecisionsAt(e, at) {
		if add(&d) {
			b.decLines++
		}
	}
	b.buf.Write(buf)
}
