package stage

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"sync"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/scorer"
)

// contentDigest hashes every input field of an instance a judge metric can
// read. With the metric and judge names it keys the result cache, so a
// duplicate delivery of the same run (or an identical run) is judged once.
// One digest serves every judge metric of the run.
func contentDigest(bufs *sync.Pool, in *scorer.Instance) []byte {
	bp := bufs.Get().(*[]byte)
	buf := (*bp)[:0]
	put := func(v string) {
		buf = binary.LittleEndian.AppendUint64(buf, uint64(len(v)))
		buf = append(buf, v...)
	}
	put(strconv.FormatUint(uint64(in.Has), 16))
	put(in.Prompt)
	put(in.Response)
	put(in.Reference)
	put(in.Context)
	put(in.Instruction)
	put(in.Prediction)
	put(strconv.Itoa(len(in.PredictedTrajectory)))
	for _, c := range in.PredictedTrajectory {
		put(c.Name)
		put(c.Arguments)
		put(c.Result)
		put(c.Error)
	}
	put(strconv.Itoa(len(in.ReferenceTrajectory)))
	for _, c := range in.ReferenceTrajectory {
		put(c.Name)
		put(c.Arguments)
	}
	put(strconv.Itoa(len(in.ToolDeclarations)))
	for _, d := range in.ToolDeclarations {
		put(d.Name)
		put(d.Description)
		put(d.Parameters)
	}
	putMessages := func(ms []agentrun.Message) {
		put(strconv.Itoa(len(ms)))
		for _, m := range ms {
			put(m.Role)
			put(m.Content)
			put(strconv.Itoa(len(m.ToolCalls)))
			for _, c := range m.ToolCalls {
				put(c.Name)
				put(c.Arguments)
			}
		}
	}
	putMessages(in.Conversation)
	putMessages(in.Transcript)
	put(strconv.Itoa(len(in.ReferenceTopics)))
	for _, t := range in.ReferenceTopics {
		put(t)
	}
	put(strconv.Itoa(len(in.Invocations)))
	for _, inv := range in.Invocations {
		put(inv.UserContent)
		put(inv.Response)
		put(inv.Reference)
	}
	for _, k := range slices.Sorted(maps.Keys(in.Columns)) {
		put(k)
		put(fmt.Sprint(in.Columns[k]))
	}
	sum := sha256.Sum256(buf)
	if cap(buf) <= maxPooledDigestBuf {
		*bp = buf
		bufs.Put(bp)
	}
	return sum[:]
}

// newDigestBufs returns the pool of the buffers contentDigest hashes.
// The digest is SHA-256, not a faster non-cryptographic hash, so that
// crafted content cannot collide with another run's and take its cached
// score.
func newDigestBufs() *sync.Pool {
	return &sync.Pool{New: func() any { b := make([]byte, 0, 8<<10); return &b }}
}

// maxPooledDigestBuf keeps unusually large buffers out of the pool.
const maxPooledDigestBuf = 1 << 20
