package memlimit

import (
	"strings"
	"testing"
)

func TestLimits(t *testing.T) {
	const mib = 1 << 20
	tests := []struct {
		name       string
		cfg        Config
		available  uint64
		hard, soft uint64
		err        string
	}{
		{"percentages of the cgroup limit", DefaultConfig(), 1000 * mib, 800 * mib, 600 * mib, ""},
		{"limit_mib with its own spike", Config{Enabled: true, LimitMiB: 200, SpikeLimitMiB: 50}, 0, 200 * mib, 150 * mib, ""},
		{"limit_mib, spike defaults to a fifth", Config{Enabled: true, LimitMiB: 200, SpikeLimitPercentage: 20}, 1000 * mib, 200 * mib, 160 * mib, ""},
		{"unknown memory", DefaultConfig(), 0, 0, 0, "set limit_mib"},
		{"spike above limit", Config{Enabled: true, LimitMiB: 100, SpikeLimitMiB: 100}, 0, 0, 0, "below the limit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hard, soft, err := tt.cfg.limits(tt.available)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil || hard != tt.hard || soft != tt.soft {
				t.Fatalf("limits = %d, %d, %v; want %d, %d", hard/mib, soft/mib, err, tt.hard/mib, tt.soft/mib)
			}
		})
	}
}

// TestBudget checks that takes fit the budget, and that one taker larger
// than it passes only alone.
func TestBudget(t *testing.T) {
	b := NewBudget(10)
	steps := []struct {
		n, held int64
		want    bool
	}{
		{6, 0, true},   // 6
		{5, 0, false},  // would be 11
		{4, 0, true},   // 10
		{1, 0, false},  // full
		{1, 6, false},  // the first taker is not alone
		{-10, 0, true}, // both give back (Release below)
		{25, 0, true},  // larger than the budget, alone
		{1, 0, false},  // nothing beside it
		{5, 25, true},  // it may grow, still alone
	}
	for i, s := range steps {
		if s.n < 0 {
			b.Release(-s.n)
			continue
		}
		if got := b.Take(s.n, s.held); got != s.want {
			t.Fatalf("step %d: Take(%d, %d) = %v, want %v", i, s.n, s.held, got, s.want)
		}
	}
	var nilBudget *Budget
	if !nilBudget.Take(1<<40, 0) {
		t.Fatal("a nil budget bounds nothing")
	}
}
