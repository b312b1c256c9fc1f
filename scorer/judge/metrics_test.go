package judge

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
)

func TestMetricsValues(t *testing.T) {
	reg := prometheus.NewPedanticRegistry()
	m, err := NewMetrics(reg)
	if err != nil {
		t.Fatal(err)
	}
	clock := newFakeClock(budgetEpoch)
	pa := &fakeProvider{model: "gpt-judge", script: func(_ context.Context, n int) (*Response, error) {
		switch n {
		case 0:
			return nil, jerr(ClassRateLimited, 429, 2*time.Second)
		case 1:
			clock.Advance(3 * time.Second)
			return &Response{Text: "{}", InputTokens: 1000, OutputTokens: 200}, nil
		}
		return nil, jerr(ClassOverloaded, 529, 0)
	}}
	cfgA := testConfig("a")
	cfgA.MaxRetries = 1
	cfgA.Circuit.Failures = 1
	cfgA.Prices = Prices{InputPerMillionTokens: 2, OutputPerMillionTokens: 10}
	cfgA.Budget = BudgetConfig{CallsPerMinute: 5}
	a := newTestClient(t, cfgA, pa, clock, Options{Metrics: m, Jitter: func() float64 { return 0 }})
	b := newTestClient(t, testConfig("b"), &fakeProvider{model: "gemini-judge"}, clock, Options{Metrics: m})

	ctx := context.Background()
	if _, err := a.Judge(ctx, testRequest()); err != nil { // 429, then ok
		t.Fatal(err)
	}
	if _, err := a.Judge(ctx, testRequest()); ClassOf(err) != ClassOverloaded { // 529 twice: circuit opens
		t.Fatalf("class %q, want overloaded", ClassOf(err))
	}
	if _, err := a.Judge(ctx, testRequest()); ClassOf(err) != ClassCircuitOpen {
		t.Fatalf("class %q, want circuit_open", ClassOf(err))
	}
	// The probe, in the same minute: 529, then the budget refuses the
	// retry (the 6th attempt this minute); the 529 reopens the circuit.
	clock.Advance(cfgA.Circuit.OpenFor)
	pa.script = always(jerr(ClassOverloaded, 529, 0))
	if _, err := a.Judge(ctx, testRequest()); ClassOf(err) != ClassBudget {
		t.Fatalf("class %q, want over_budget", ClassOf(err))
	}
	if a.CircuitState() != CircuitOpen {
		t.Errorf("state %s after a failed probe, want open", a.CircuitState())
	}
	if _, err := b.Judge(ctx, testRequest()); err != nil {
		t.Fatal(err)
	}

	want := `
# HELP evalsidecar_judge_circuit_open 1 while the judge's circuit breaker is open or half-open, else 0.
# TYPE evalsidecar_judge_circuit_open gauge
evalsidecar_judge_circuit_open{judge="a"} 1
evalsidecar_judge_circuit_open{judge="b"} 0
# HELP evalsidecar_judge_cost_usd_total Estimated spend on judge calls in USD, from the configured prices.
# TYPE evalsidecar_judge_cost_usd_total counter
evalsidecar_judge_cost_usd_total{judge="a",model="gpt-judge"} 0.004
evalsidecar_judge_cost_usd_total{judge="b",model="gemini-judge"} 0
# HELP evalsidecar_judge_in_flight Judge calls holding a concurrency slot.
# TYPE evalsidecar_judge_in_flight gauge
evalsidecar_judge_in_flight{judge="a"} 0
evalsidecar_judge_in_flight{judge="b"} 0
# HELP evalsidecar_judge_requests_total Judge attempts by outcome ("ok" or a failure class), and calls refused by an open circuit or a budget.
# TYPE evalsidecar_judge_requests_total counter
evalsidecar_judge_requests_total{judge="a",model="gpt-judge",outcome="circuit_open"} 1
evalsidecar_judge_requests_total{judge="a",model="gpt-judge",outcome="ok"} 1
evalsidecar_judge_requests_total{judge="a",model="gpt-judge",outcome="over_budget"} 1
evalsidecar_judge_requests_total{judge="a",model="gpt-judge",outcome="overloaded"} 3
evalsidecar_judge_requests_total{judge="a",model="gpt-judge",outcome="rate_limited"} 1
evalsidecar_judge_requests_total{judge="b",model="gemini-judge",outcome="ok"} 1
# HELP evalsidecar_judge_retries_total Judge retries, by the failure class that caused them.
# TYPE evalsidecar_judge_retries_total counter
evalsidecar_judge_retries_total{class="overloaded",judge="a",model="gpt-judge"} 2
evalsidecar_judge_retries_total{class="rate_limited",judge="a",model="gpt-judge"} 1
# HELP evalsidecar_judge_tokens_total Tokens used by judge calls, as the provider reports them.
# TYPE evalsidecar_judge_tokens_total counter
evalsidecar_judge_tokens_total{judge="a",model="gpt-judge",type="input"} 1000
evalsidecar_judge_tokens_total{judge="a",model="gpt-judge",type="output"} 200
evalsidecar_judge_tokens_total{judge="b",model="gemini-judge",type="input"} 100
evalsidecar_judge_tokens_total{judge="b",model="gemini-judge",type="output"} 20
`
	names := []string{
		"evalsidecar_judge_circuit_open", "evalsidecar_judge_cost_usd_total", "evalsidecar_judge_in_flight",
		"evalsidecar_judge_requests_total", "evalsidecar_judge_retries_total", "evalsidecar_judge_tokens_total",
	}
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), names...); err != nil {
		t.Error(err)
	}
	// Every attempt is timed: 5 attempts by a, 1 by b; a's success took 3s.
	if n := testutil.CollectAndCount(m.duration); n != 2 {
		t.Errorf("duration series = %d, want 2", n)
	}
	wantHist := `
# HELP evalsidecar_judge_request_duration_seconds Duration of judge attempts, failed ones included.
# TYPE evalsidecar_judge_request_duration_seconds histogram
evalsidecar_judge_request_duration_seconds_bucket{judge="a",model="gpt-judge",le="0.1"} 4
evalsidecar_judge_request_duration_seconds_bucket{judge="a",model="gpt-judge",le="0.25"} 4
evalsidecar_judge_request_duration_seconds_bucket{judge="a",model="gpt-judge",le="0.5"} 4
evalsidecar_judge_request_duration_seconds_bucket{judge="a",model="gpt-judge",le="1"} 4
evalsidecar_judge_request_duration_seconds_bucket{judge="a",model="gpt-judge",le="2"} 4
evalsidecar_judge_request_duration_seconds_bucket{judge="a",model="gpt-judge",le="4"} 5
evalsidecar_judge_request_duration_seconds_bucket{judge="a",model="gpt-judge",le="8"} 5
evalsidecar_judge_request_duration_seconds_bucket{judge="a",model="gpt-judge",le="15"} 5
evalsidecar_judge_request_duration_seconds_bucket{judge="a",model="gpt-judge",le="30"} 5
evalsidecar_judge_request_duration_seconds_bucket{judge="a",model="gpt-judge",le="60"} 5
evalsidecar_judge_request_duration_seconds_bucket{judge="a",model="gpt-judge",le="120"} 5
evalsidecar_judge_request_duration_seconds_bucket{judge="a",model="gpt-judge",le="+Inf"} 5
evalsidecar_judge_request_duration_seconds_sum{judge="a",model="gpt-judge"} 3
evalsidecar_judge_request_duration_seconds_count{judge="a",model="gpt-judge"} 5
evalsidecar_judge_request_duration_seconds_bucket{judge="b",model="gemini-judge",le="0.1"} 1
evalsidecar_judge_request_duration_seconds_bucket{judge="b",model="gemini-judge",le="0.25"} 1
evalsidecar_judge_request_duration_seconds_bucket{judge="b",model="gemini-judge",le="0.5"} 1
evalsidecar_judge_request_duration_seconds_bucket{judge="b",model="gemini-judge",le="1"} 1
evalsidecar_judge_request_duration_seconds_bucket{judge="b",model="gemini-judge",le="2"} 1
evalsidecar_judge_request_duration_seconds_bucket{judge="b",model="gemini-judge",le="4"} 1
evalsidecar_judge_request_duration_seconds_bucket{judge="b",model="gemini-judge",le="8"} 1
evalsidecar_judge_request_duration_seconds_bucket{judge="b",model="gemini-judge",le="15"} 1
evalsidecar_judge_request_duration_seconds_bucket{judge="b",model="gemini-judge",le="30"} 1
evalsidecar_judge_request_duration_seconds_bucket{judge="b",model="gemini-judge",le="60"} 1
evalsidecar_judge_request_duration_seconds_bucket{judge="b",model="gemini-judge",le="120"} 1
evalsidecar_judge_request_duration_seconds_bucket{judge="b",model="gemini-judge",le="+Inf"} 1
evalsidecar_judge_request_duration_seconds_sum{judge="b",model="gemini-judge"} 0
evalsidecar_judge_request_duration_seconds_count{judge="b",model="gemini-judge"} 1
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(wantHist), "evalsidecar_judge_request_duration_seconds"); err != nil {
		t.Error(err)
	}
	if problems, err := testutil.GatherAndLint(reg); err != nil || len(problems) != 0 {
		t.Errorf("lint: %v %v", problems, err)
	}
}

func TestMetricsRegistration(t *testing.T) {
	reg := prometheus.NewRegistry()
	if _, err := NewMetrics(reg); err != nil {
		t.Fatal(err)
	}
	if _, err := NewMetrics(reg); err == nil {
		t.Error("registering the judge metrics twice on one registry succeeded")
	}
	m, err := NewMetrics(nil)
	if err != nil || m == nil {
		t.Fatalf("NewMetrics(nil) = %v, %v", m, err)
	}
	// A nil *Metrics records nothing and does not panic.
	var none *Metrics
	cm := none.forClient("j", "m")
	cm.attempt(ClassTimeout, time.Second)
	cm.refused(ClassBudget)
	cm.usage(1, 2, 3)
	cm.retries.WithLabelValues(string(ClassTimeout)).Inc()
	cm.circuit(CircuitOpen)
	cm.inFlight.Inc()
}

func TestClientConcurrencyCap(t *testing.T) {
	reg := prometheus.NewRegistry()
	m, err := NewMetrics(reg)
	if err != nil {
		t.Fatal(err)
	}
	clock := newFakeClock(budgetEpoch)
	const limit, calls = 3, 24
	entered := make(chan struct{}, calls)
	release := make(chan struct{})
	p := &fakeProvider{script: func(context.Context, int) (*Response, error) {
		entered <- struct{}{}
		<-release
		return okResponse(), nil
	}}
	cfg := testConfig("j")
	cfg.MaxConcurrency = limit
	c := newTestClient(t, cfg, p, clock, Options{Metrics: m})
	var wg sync.WaitGroup
	for range calls {
		wg.Go(func() {
			if _, err := c.Judge(context.Background(), testRequest()); err != nil {
				t.Error(err)
			}
		})
	}
	for range limit {
		<-entered
	}
	if got := testutil.ToFloat64(m.inFlight.WithLabelValues("j")); got != limit {
		t.Errorf("in_flight = %v with the cap reached, want %d", got, limit)
	}
	close(release)
	wg.Wait()
	if p.MaxInFlight() != limit {
		t.Errorf("max in flight at the provider = %d, want %d", p.MaxInFlight(), limit)
	}
	if p.Attempts() != calls {
		t.Errorf("attempts = %d, want %d", p.Attempts(), calls)
	}
	if got := testutil.ToFloat64(m.inFlight.WithLabelValues("j")); got != 0 {
		t.Errorf("in_flight = %v after all calls, want 0", got)
	}
}

func TestClientConcurrencyWaitEndsWithContext(t *testing.T) {
	clock := newFakeClock(budgetEpoch)
	entered := make(chan struct{})
	release := make(chan struct{})
	p := &fakeProvider{script: func(context.Context, int) (*Response, error) {
		entered <- struct{}{}
		<-release
		return okResponse(), nil
	}}
	cfg := testConfig("j")
	cfg.MaxConcurrency = 1
	c := newTestClient(t, cfg, p, clock, Options{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = c.Judge(context.Background(), testRequest())
	}()
	<-entered
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.Judge(ctx, testRequest()); ClassOf(err) != ClassCanceled {
		t.Errorf("class %q, want canceled", ClassOf(err))
	}
	close(release)
	<-done
}
