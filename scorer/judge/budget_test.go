package judge

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// budgetEpoch is a fixed instant 10s into a UTC minute.
var budgetEpoch = time.Date(2026, 3, 14, 15, 9, 10, 0, time.UTC)

func limitOf(err error) string {
	var be *BudgetExceeded
	if errors.As(err, &be) {
		return be.Limit
	}
	return ""
}

func TestBudgetLimits(t *testing.T) {
	type step struct {
		advance   time.Duration
		tokens    int64
		usd       float64
		commit    bool // commit actual use (tokens/2, usd/2) instead of keeping the estimate
		release   bool
		wantLimit string
	}
	tests := []struct {
		name  string
		cfg   BudgetConfig
		steps []step
	}{
		{"calls per minute, fixed window", BudgetConfig{CallsPerMinute: 2}, []step{
			{}, {}, {wantLimit: LimitCallsPerMinute},
			{advance: 49 * time.Second, wantLimit: LimitCallsPerMinute},
			{advance: time.Second}, {}, {wantLimit: LimitCallsPerMinute},
		}},
		{"release gives the call back", BudgetConfig{CallsPerMinute: 1}, []step{
			{release: true}, {}, {wantLimit: LimitCallsPerMinute},
		}},
		{"tokens per hour, corrected by commit", BudgetConfig{TokensPerHour: 1000}, []step{
			{tokens: 600, commit: true}, // 300 used
			{tokens: 700},               // 1000 used
			{tokens: 1, wantLimit: LimitTokensPerHour},
			{advance: 51 * time.Minute}, // 16:00:10, a new hour
			{tokens: 1001, wantLimit: LimitTokensPerHour},
			{tokens: 1000},
		}},
		{"tokens per day", BudgetConfig{TokensPerDay: 100, TokensPerHour: 1000}, []step{
			{tokens: 100}, {advance: time.Hour, tokens: 1, wantLimit: LimitTokensPerDay},
			{advance: 9 * time.Hour, tokens: 100},
		}},
		{"usd per day", BudgetConfig{USDPerDay: 1}, []step{
			{usd: 0.5, commit: true}, // 0.25 spent
			{usd: 0.5},               // 0.75
			{usd: 0.5, wantLimit: LimitUSDPerDay},
			{usd: 0.25},
			{usd: 0.125, wantLimit: LimitUSDPerDay},
			{advance: 9 * time.Hour, usd: 1}, // a new UTC day
		}},
		{"first limit named", BudgetConfig{CallsPerMinute: 1, TokensPerHour: 1}, []step{
			{tokens: 2, wantLimit: LimitTokensPerHour}, {tokens: 1}, {wantLimit: LimitCallsPerMinute},
		}},
		{"unlimited", BudgetConfig{}, []step{{tokens: 1 << 40, usd: 1e9}, {tokens: 1 << 40, usd: 1e9}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := newFakeClock(budgetEpoch)
			b := NewBudget("judge-a", tt.cfg, clock.Now)
			for i, s := range tt.steps {
				clock.Advance(s.advance)
				r, err := b.Reserve(s.tokens, s.usd)
				if got := limitOf(err); got != s.wantLimit {
					t.Fatalf("step %d: limit %q, want %q (err %v)", i, got, s.wantLimit, err)
				}
				if err != nil {
					if ClassOf(err) != ClassBudget {
						t.Fatalf("step %d: class %q, want over_budget", i, ClassOf(err))
					}
					continue
				}
				switch {
				case s.release:
					r.Release()
				case s.commit:
					r.Commit(s.tokens/2, s.usd/2)
				default:
					r.Commit(s.tokens, s.usd)
				}
			}
		})
	}
}

func TestBudgetCommitAfterWindowEnds(t *testing.T) {
	clock := newFakeClock(budgetEpoch.Add(50 * time.Minute)) // 15:59:10
	b := NewBudget("j", BudgetConfig{TokensPerHour: 1000, TokensPerDay: 10000}, clock.Now)
	r, err := b.Reserve(800, 0)
	if err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Minute) // 16:00:10, a new hour, the same day
	r.Commit(100, 0)
	r.Commit(5000, 0) // ignored: already committed
	r.Release()       // ignored too
	u := b.Usage()
	if u.TokensThisHour != 0 || u.TokensToday != 100 {
		t.Errorf("usage %+v, want 0 this hour (the estimate stayed in the hour that ended) and 100 today", u)
	}
}

func TestBudgetErrorNamesBudgetAndLimit(t *testing.T) {
	b := NewBudget("faithfulness", BudgetConfig{CallsPerMinute: 1}, nil)
	if _, err := b.Reserve(0, 0); err != nil {
		t.Fatal(err)
	}
	_, err := b.Reserve(0, 0)
	want := `judge over_budget: budget "faithfulness": calls_per_minute reached`
	if err == nil || err.Error() != want {
		t.Errorf("error = %v, want %q", err, want)
	}
}

func TestNilBudgetIsUnlimited(t *testing.T) {
	var b *Budget
	r, err := b.Reserve(1<<50, 1e12)
	if err != nil || r != nil {
		t.Fatalf("nil budget: %v, %v", r, err)
	}
	r.Commit(1, 1)
	r.Release()
	if b.Name() != "" || b.Usage() != (BudgetUsage{}) {
		t.Error("nil budget has a name or usage")
	}
	if BudgetFrom(context.Background()) != nil {
		t.Error("a context without budget returned one")
	}
}

func TestBudgetExactUnderConcurrency(t *testing.T) {
	clock := newFakeClock(budgetEpoch)
	b := NewBudget("j", BudgetConfig{CallsPerMinute: 10, TokensPerHour: 1 << 40}, clock.Now)
	var passed atomic.Int64
	var wg sync.WaitGroup
	for range 200 {
		wg.Go(func() {
			r, err := b.Reserve(5, 0)
			if err == nil {
				passed.Add(1)
				r.Commit(3, 0)
			} else if limitOf(err) != LimitCallsPerMinute {
				t.Errorf("unexpected error %v", err)
			}
		})
	}
	wg.Wait()
	if passed.Load() != 10 {
		t.Errorf("%d calls passed, want exactly 10", passed.Load())
	}
	if u := b.Usage(); u.CallsThisMinute != 10 || u.TokensThisHour != 30 {
		t.Errorf("usage %+v, want 10 calls and 30 tokens", u)
	}
}

func TestClientBudgetHoldsToTheCallUnderConcurrency(t *testing.T) {
	clock := newFakeClock(budgetEpoch)
	p := &fakeProvider{}
	cfg := testConfig("j")
	cfg.MaxConcurrency = 64
	cfg.Budget = BudgetConfig{CallsPerMinute: 10}
	c := newTestClient(t, cfg, p, clock, Options{})
	var ok, refused atomic.Int64
	var wg sync.WaitGroup
	for range 100 {
		wg.Go(func() {
			_, err := c.Judge(context.Background(), testRequest())
			switch {
			case err == nil:
				ok.Add(1)
			case ClassOf(err) == ClassBudget && limitOf(err) == LimitCallsPerMinute:
				refused.Add(1)
			default:
				t.Errorf("unexpected error %v", err)
			}
		})
	}
	wg.Wait()
	if ok.Load() != 10 || refused.Load() != 90 || p.Attempts() != 10 {
		t.Errorf("%d passed, %d refused, %d attempts; want 10, 90, 10", ok.Load(), refused.Load(), p.Attempts())
	}
	// The next minute lets 10 more through.
	clock.Advance(time.Minute)
	for range 11 {
		_, _ = c.Judge(context.Background(), testRequest())
	}
	if p.Attempts() != 20 {
		t.Errorf("attempts after the next minute = %d, want 20", p.Attempts())
	}
}

func TestClientBudgetCountsAttempts(t *testing.T) {
	clock := newFakeClock(budgetEpoch)
	p := &fakeProvider{script: always(jerr(ClassServerError, 500, 0))}
	cfg := testConfig("j")
	cfg.Budget = BudgetConfig{CallsPerMinute: 2}
	c := newTestClient(t, cfg, p, clock, Options{Jitter: func() float64 { return 0 }})
	_, err := c.Judge(context.Background(), testRequest())
	if limitOf(err) != LimitCallsPerMinute || p.Attempts() != 2 {
		t.Errorf("error %v after %d attempts; want calls_per_minute after 2", err, p.Attempts())
	}
}

func TestClientReservesFromMetricBudget(t *testing.T) {
	clock := newFakeClock(budgetEpoch)
	p := &fakeProvider{} // every answer: 100 input, 20 output tokens
	cfg := testConfig("j")
	cfg.Budget = BudgetConfig{CallsPerMinute: 100, TokensPerHour: 1_000_000}
	cfg.Prices = Prices{InputPerMillionTokens: 1, OutputPerMillionTokens: 2}
	c := newTestClient(t, cfg, p, clock, Options{})
	metric := NewBudget("faithfulness", BudgetConfig{CallsPerMinute: 2}, clock.Now)
	ctx := WithBudget(context.Background(), metric)
	if BudgetFrom(ctx) != metric {
		t.Fatal("BudgetFrom does not return the attached budget")
	}
	for i := range 3 {
		_, err := c.Judge(ctx, testRequest())
		if i < 2 && err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
		if i == 2 {
			var be *BudgetExceeded
			if !errors.As(err, &be) || be.Budget != "faithfulness" || be.Limit != LimitCallsPerMinute {
				t.Fatalf("call 3: %v, want the metric budget's calls_per_minute", err)
			}
		}
	}
	// The refused call was given back to the judge's own budget.
	if u := c.Budget().Usage(); u.CallsThisMinute != 2 || u.TokensThisHour != 240 {
		t.Errorf("judge budget usage %+v, want 2 calls and 240 tokens", u)
	}
	if u := metric.Usage(); u.CallsThisMinute != 2 || u.TokensThisHour != 240 {
		t.Errorf("metric budget usage %+v, want 2 calls and 240 tokens", u)
	}
	// Calls without the metric budget still pass.
	if _, err := c.Judge(context.Background(), testRequest()); err != nil {
		t.Errorf("call without metric budget: %v", err)
	}
}

func TestClientBudgetEstimate(t *testing.T) {
	clock := newFakeClock(budgetEpoch)
	req := &Request{System: "12345678", Prompt: "12345678", MaxOutputTokens: 50} // 16/4 + 50
	tests := []struct {
		name       string
		limit      int64
		req        *Request
		estOut     int
		wantRefuse bool
	}{
		{"estimate fits", 54, req, 0, false},
		{"estimate one over", 53, req, 0, true},
		{"default answer cap", 4 + DefaultEstimatedOutputTokens, &Request{System: "12345678", Prompt: "12345678"}, 0, false},
		{"default answer cap over", 3 + DefaultEstimatedOutputTokens, &Request{System: "12345678", Prompt: "12345678"}, 0, true},
		{"configured answer cap", 14, &Request{System: "12345678", Prompt: "12345678"}, 10, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := &fakeProvider{}
			cfg := testConfig("j")
			cfg.Budget = BudgetConfig{TokensPerHour: tt.limit}
			c := newTestClient(t, cfg, p, clock, Options{EstimatedOutputTokens: tt.estOut})
			_, err := c.Judge(context.Background(), tt.req)
			if refused := ClassOf(err) == ClassBudget; refused != tt.wantRefuse {
				t.Errorf("refused = %v, want %v (err %v)", refused, tt.wantRefuse, err)
			}
		})
	}
}

func TestBudgetConfigValidate(t *testing.T) {
	if err := (BudgetConfig{CallsPerMinute: 1, TokensPerHour: 2, TokensPerDay: 3, USDPerDay: 4}).Validate("budget."); err != nil {
		t.Errorf("valid config: %v", err)
	}
}
