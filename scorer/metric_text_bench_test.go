package scorer

import (
	"context"
	"strings"
	"testing"
)

// benchWords is a realistic vocabulary for 200-word answers.
var benchWords = strings.Fields(`the order was shipped on Monday and should arrive within three to five
business days. You can track the package using the link in your confirmation email. If the item
arrives damaged, please contact our support team and we will arrange a replacement or a full refund.
Returns are accepted within thirty days of delivery, provided the product is unused and in its
original packaging. Refunds are processed to the original payment method once the warehouse has
inspected the returned items, which usually takes two or three working days.`)

// benchText builds an n-word text from the vocabulary, starting at offset,
// with a sentence break every 20 words.
func benchText(n, offset int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			if i%20 == 0 {
				b.WriteString(".\n")
			} else {
				b.WriteByte(' ')
			}
		}
		b.WriteString(benchWords[(i*7+offset)%len(benchWords)])
	}
	return b.String()
}

// BenchmarkTextMetrics scores a 200-word response against a 200-word
// reference, each metric on its own: "unprepared" on a new Instance with
// nothing derived (a dataset row), "canary" with the reference side
// prepared once for the case (a canary run).
func BenchmarkTextMetrics(b *testing.B) {
	resp, ref := benchText(200, 0), benchText(200, 3)
	// Each iteration scores a new Instance, so work an Instance shares
	// between its metrics is counted in full for every metric.
	newIn := func(p *PreparedReference) func() *Instance {
		return func() *Instance {
			return &Instance{Response: resp, Reference: ref, Has: InResponse | InReference, PreparedReference: p}
		}
	}
	for _, c := range []struct {
		name   string
		metric string
		params map[string]any
	}{
		{"exact_match", MetricExactMatch, nil},
		{"bleu", MetricBLEU, nil},
		{"rouge1", MetricRouge1, nil},
		{"rouge1_stemmed", MetricRouge, map[string]any{ParamRougeType: "rouge1", ParamUseStemmer: true}},
		{"rouge2", MetricRouge2, nil},
		{"rougeL", MetricRougeL, nil},
		{"rougeLsum", MetricRougeLSum, nil},
		{"response_match_score", MetricResponseMatchScore, nil},
	} {
		m := mustMetric(b, c.metric, c.params)
		b.Run(c.name+"/unprepared", func(b *testing.B) { benchMetric(b, m, newIn(nil)) })
		b.Run(c.name+"/canary", func(b *testing.B) {
			p := NewPreparedReference(ref, nil)
			scoreAll([]Metric{m}, newIn(p)()) // the case's first run prepares it
			benchMetric(b, m, newIn(p))
		})
	}
}

// benchMetric scores m on a new Instance from newIn per iteration.
func benchMetric(b *testing.B, m Metric, newIn func() *Instance) {
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := m.Score(ctx, newIn()); err != nil {
			b.Fatal(err)
		}
	}
}
