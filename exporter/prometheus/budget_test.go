package prometheus

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/scorer"
)

// TestSeriesBudget exports runs of more label combinations than a family's
// budget and checks that each family stops at the budget plus its other
// rows, that totals stay whole, that the rows created first keep counting,
// and that every folded observation is counted.
func TestSeriesBudget(t *testing.T) {
	cfg := DefaultConfig()
	cfg.MaxSeries = 10
	x, reg := newTestExporter(t, cfg)
	const services, rounds = 40, 2
	for range rounds {
		for n := range services {
			tr := &agentrun.Trajectory{Service: fmt.Sprintf("s%d", n), Agent: fmt.Sprintf("a%d", n%7), ToolCalls: []agentrun.ToolCall{{Name: "t"}}}
			if n%3 == 0 {
				tr.Failed = true
			}
			ev := &scorer.Evaluation{Trajectory: tr, Results: []scorer.Result{{Metric: "m", Score: 0.5}}}
			if err := x.Export(context.Background(), ev); err != nil {
				t.Fatal(err)
			}
		}
	}
	s := series(t, reg)
	total := func(name string) (sum float64) {
		for _, m := range s[name] {
			sum += m.GetCounter().GetValue() + float64(m.GetHistogram().GetSampleCount())
		}
		return sum
	}
	for _, tc := range []struct {
		name  string
		other int // other rows: one per value of the last label
	}{{MetricTrajectories, 2}, {MetricToolCalls, 1}, {MetricEvalScoreOther, 1}} {
		if n := len(s[tc.name]); n > cfg.MaxSeries+tc.other {
			t.Errorf("%s: %d series, budget %d + %d other rows", tc.name, n, cfg.MaxSeries, tc.other)
		}
		if got := total(tc.name); got != services*rounds {
			t.Errorf("%s: total %v, want %d", tc.name, got, services*rounds)
		}
	}
	// the first service's row existed before the budget ran out
	if got := s[MetricTrajectories]["agent=a0,outcome=failed,service_name=s0,service_version=unknown"].GetCounter().GetValue(); got != rounds {
		t.Errorf("first row = %v, want %d", got, rounds)
	}
	other := s[MetricTrajectories]["agent=other,outcome=failed,service_name=other,service_version=other"].GetCounter().GetValue()
	if other == 0 {
		t.Error("no failed run in the other row")
	}
	// each combination past the budget is counted once as it is folded
	if folded := testutil.ToFloat64(x.m.seriesOverflow.WithLabelValues(MetricTrajectories)); folded != services-float64(cfg.MaxSeries) {
		t.Errorf("folded = %v, want %d", folded, services-cfg.MaxSeries)
	}
}

// TestScrapeUnderCardinalityLoad exports 10,000 runs whose service,
// service_version, agent, tool and model each take 200 values in random
// combinations, each run with four scores (ratio, seconds, count, rating),
// and checks that the text exposition Prometheus scrapes stays under
// 10 MB: the per-label caps alone admit every combination.
func TestScrapeUnderCardinalityLoad(t *testing.T) {
	x, reg := newTestExporter(t, DefaultConfig())
	x.DescribeMetrics([]scorer.Metric{
		describedMetric{"tool_error_rate", scorer.UnitRatio}, describedMetric{"latency", scorer.UnitSeconds},
		describedMetric{"tool_call_count", scorer.UnitCount}, describedMetric{"coherence", scorer.UnitRating},
	})
	rng := rand.New(rand.NewPCG(1, 2))
	pick := func(prefix string) string { return fmt.Sprintf("%s-%d", prefix, rng.IntN(200)) }
	start := time.Unix(1_800_000_000, 0)
	for i := range 10_000 {
		tr := &agentrun.Trajectory{
			TraceID: fmt.Sprintf("%032x", i), Service: pick("service"), ServiceVersion: pick("v"), Agent: pick("agent"),
			Start: start, End: start.Add(time.Duration(rng.IntN(5000)) * time.Millisecond),
			ToolCalls: []agentrun.ToolCall{{Name: pick("tool")}, {Name: pick("tool"), Error: "boom"}},
			LLMCalls:  []agentrun.LLMCall{{Model: pick("model"), InputTokens: 100, OutputTokens: 10}},
		}
		ev := &scorer.Evaluation{Trajectory: tr, Results: []scorer.Result{
			{Metric: "tool_error_rate", Score: 0.5},
			{Metric: "latency", Score: 1.5},
			{Metric: "tool_call_count", Score: 2},
			{Metric: "coherence", Score: 4},
		}}
		if err := x.Export(context.Background(), ev); err != nil {
			t.Fatal(err)
		}
	}
	srv := httptest.NewServer(promhttp.HandlerFor(reg, promhttp.HandlerOpts{EnableOpenMetrics: true}))
	defer srv.Close()
	req, err := http.NewRequest(http.MethodGet, srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "application/openmetrics-text; version=1.0.0") // with exemplars, as Prometheus asks
	began := time.Now()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	series := 0
	for _, line := range strings.Split(string(body), "\n") {
		if line != "" && line[0] != '#' {
			series++
		}
	}
	t.Logf("scrape: %.1f MB, %d sample lines, %s", float64(len(body))/1e6, series, time.Since(began).Round(time.Millisecond))
	if len(body) > 10_000_000 {
		t.Errorf("scrape is %.1f MB, want under 10 MB", float64(len(body))/1e6)
	}
}

// TestSessionsSeriesBudget exports sessions of more (service, agent)
// pairs than the budget and checks that evalsidecar_sessions_total stops at
// the budget plus one other row per outcome, that its total stays whole
// and that each folded pair is counted.
func TestSessionsSeriesBudget(t *testing.T) {
	cfg := DefaultConfig()
	cfg.MaxSeries = 5
	x, reg := newTestExporter(t, cfg)
	const services = 30
	failed := 0
	for n := range services {
		s := &agentrun.Session{ID: fmt.Sprint(n), Service: fmt.Sprintf("s%d", n), Agent: "a",
			Turns: []agentrun.Turn{{TraceID: "t1"}, {TraceID: "t2", Failed: n%2 == 0}}}
		if n%2 == 0 {
			failed++
		}
		if err := x.Export(context.Background(), &scorer.Evaluation{Session: s}); err != nil {
			t.Fatal(err)
		}
	}
	s := series(t, reg)[MetricSessions]
	if len(s) > cfg.MaxSeries+2 {
		t.Errorf("%d series, budget %d + 2 other rows", len(s), cfg.MaxSeries)
	}
	var sum, otherFailed float64
	for k, m := range s {
		sum += m.GetCounter().GetValue()
		if strings.Contains(k, "service_name=other") && strings.Contains(k, "outcome=failed") {
			otherFailed = m.GetCounter().GetValue()
		}
	}
	if sum != services {
		t.Errorf("total %v, want %d", sum, services)
	}
	// the first 5 pairs (3 failed) have their own rows
	if want := float64(failed - 3); otherFailed != want {
		t.Errorf("other row, failed: %v, want %v", otherFailed, want)
	}
	if got := s["agent=a,outcome=failed,service_name=s0"].GetCounter().GetValue(); got != 1 {
		t.Errorf("first row = %v, want 1", got)
	}
	if folded := testutil.ToFloat64(x.m.seriesOverflow.WithLabelValues(MetricSessions)); folded != services-float64(cfg.MaxSeries) {
		t.Errorf("folded = %v, want %d", folded, services-cfg.MaxSeries)
	}
}
