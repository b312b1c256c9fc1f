package ngram

import (
	"os"
	"strings"
	"testing"

	"github.com/evalsidecar/evalsidecar/internal/testtext"
)

// BenchmarkOverlap counts the 1- to 4-gram overlap of a 200-word response
// with a 200-word reference, numbered, as BLEU does:
//
//   - answers: testtext's answers, drawn from one short vocabulary, whose
//     n-grams repeat every 89 words;
//   - natural: a support answer and a paraphrase of it (testdata), whose
//     n-grams mostly occur once.
func BenchmarkOverlap(b *testing.B) {
	for _, c := range []struct{ name, response, reference string }{
		{"answers", testtext.Answer(200, 0), testtext.Answer(200, 3)},
		{"natural", readFile(b, "testdata/response.txt"), readFile(b, "testdata/reference.txt")},
	} {
		var v Vocabulary
		ref := v.IDs(strings.Fields(c.reference))
		hyp := v.IDs(strings.Fields(c.response))
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Overlap(hyp, [][]int32{ref}, v.Len(), 4)
			}
		})
	}
}

func readFile(tb testing.TB, name string) string {
	tb.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		tb.Fatal(err)
	}
	return string(b)
}
