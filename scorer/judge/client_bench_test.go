package judge

import (
	"context"
	"testing"

	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/prometheus/client_golang/prometheus"
)

// BenchmarkClientJudge measures the client's own overhead around a
// provider that answers at once: breaker, semaphore, budgets, metrics.
func BenchmarkClientJudge(b *testing.B) {
	m, err := NewMetrics(prometheus.NewRegistry())
	if err != nil {
		b.Fatal(err)
	}
	resp := Response{Text: `{"score":1}`, InputTokens: 100, OutputTokens: 20}
	p := &benchProvider{resp: resp}
	cfg := testConfig("bench")
	cfg.MaxConcurrency = 64
	cfg.Budget = BudgetConfig{CallsPerMinute: 1 << 30, TokensPerHour: 1 << 50, TokensPerDay: 1 << 50, USDPerDay: 1e12}
	cfg.Prices = Prices{InputPerMillionTokens: 1, OutputPerMillionTokens: 2}
	c, err := NewClient(cfg, p, Options{Metrics: m}, telemetry.Settings{})
	if err != nil {
		b.Fatal(err)
	}
	metricBudget := NewBudget("metric", BudgetConfig{CallsPerMinute: 1 << 30}, nil)
	ctx := WithBudget(context.Background(), metricBudget)
	req := testRequest()
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := c.Judge(ctx, req); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// benchProvider answers every request with a copy of resp.
type benchProvider struct{ resp Response }

func (p *benchProvider) Kind() string  { return "openai" }
func (p *benchProvider) Model() string { return "bench-model" }
func (p *benchProvider) Complete(context.Context, *Request) (*Response, error) {
	r := p.resp
	return &r, nil
}
