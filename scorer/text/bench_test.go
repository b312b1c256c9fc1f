package text

import (
	"testing"

	"github.com/evalsidecar/evalsidecar/internal/testtext"
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/scorertest"
)

// BenchmarkTextMetrics scores a 200-word response against a 200-word
// reference, each metric on its own, on a new Instance per iteration.
func BenchmarkTextMetrics(b *testing.B) {
	resp, ref := testtext.Answer(200, 0), testtext.Answer(200, 3)
	newIn := func() *scorer.Instance {
		return &scorer.Instance{Response: resp, Reference: ref, Has: scorer.InResponse | scorer.InReference}
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
		b.Run(c.name, func(b *testing.B) { scorertest.Bench(b, m, newIn) })
	}
}
