package ngram

import (
	"strings"
	"testing"

	"github.com/evalsidecar/evalsidecar/internal/testtext"
)

// BenchmarkOverlap counts the 1- to 4-gram overlap of a 200-word
// hypothesis with a 200-word reference, numbered.
func BenchmarkOverlap(b *testing.B) {
	var v Vocabulary
	ref := v.IDs(strings.Fields(testtext.Answer(200, 3)))
	hyp := v.IDs(strings.Fields(testtext.Answer(200, 0)))
	b.ReportAllocs()
	for b.Loop() {
		Overlap(hyp, [][]int32{ref}, v.Len(), 4)
	}
}
