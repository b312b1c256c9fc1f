package scorer

import (
	"context"
	"testing"

	"github.com/evalsidecar/evalsidecar/internal/testtext"
)

// BenchmarkTextMetrics scores a 200-word response against a 200-word
// reference, each metric on its own, on a new Instance per iteration.
func BenchmarkTextMetrics(b *testing.B) {
	resp, ref := testtext.Answer(200, 0), testtext.Answer(200, 3)
	newIn := func() *Instance {
		return &Instance{Response: resp, Reference: ref, Has: InResponse | InReference}
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
		b.Run(c.name, func(b *testing.B) { benchMetric(b, m, newIn) })
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
