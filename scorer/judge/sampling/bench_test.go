package sampling

import (
	"context"
	"strings"
	"testing"
	"time"
)

func BenchmarkSampled(b *testing.B) {
	ids := randomTraceIDs(1024)
	b.ReportAllocs()
	n := 0
	for i := 0; b.Loop(); i++ {
		if Sampled(ids[i&1023], 0.05) {
			n++
		}
	}
	_ = n
}

// BenchmarkDecide is the per-(run, judge metric) cost with the policy of
// testdata/policy.yaml: a filter on every field and four rules.
func BenchmarkDecide(b *testing.B) {
	rate := 0.05
	p, err := New(Config{
		Rate: &rate,
		Filter: Filter{
			Service: []string{"checkout", "search-*"}, Environment: []string{"prod"},
			ServiceVersion: []string{"1.*"}, Attributes: map[string][]string{"tenant": {"acme", "beta-?"}},
		},
		Always: []RuleConfig{
			{Failed: true},
			{ToolErrors: true},
			{UnsupportedFactsAbove: ptr(0.0)},
			{ScoreBelow: &ScoreBelow{Metric: "tool_args_valid", Threshold: 1}},
		},
	}, time.Now)
	if err != nil {
		b.Fatal(err)
	}
	ids := randomTraceIDs(1024)
	scores := mapScores(map[string]float64{"unsupported_facts": 0, "tool_args_valid": 1})
	runs := make([]Run, len(ids))
	for i, id := range ids {
		runs[i] = Run{
			TraceID: id, Service: "search-eu", Environment: "prod", ServiceVersion: "1.4",
			Attributes: map[string]string{"tenant": "beta-3"}, Score: scores,
		}
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		p.Decide(runs[i&1023])
	}
}

func BenchmarkNewKey(b *testing.B) {
	prompt := strings.Repeat("the agent said something long; ", 256) // ~8 KiB
	b.ReportAllocs()
	b.SetBytes(int64(len(prompt)))
	for b.Loop() {
		NewKey("faithfulness", "gpt", "v1", prompt, "context")
	}
}

func BenchmarkCacheDoHit(b *testing.B) {
	c, err := NewCache[float64](CacheConfig{}, nil)
	if err != nil {
		b.Fatal(err)
	}
	k := NewKey("m", "j", "x")
	c.Put(k, 0.5)
	ctx := context.Background()
	fn := func(context.Context) (float64, error) { return 0, nil }
	b.ReportAllocs()
	for b.Loop() {
		_, _, _ = c.Do(ctx, k, fn)
	}
}
