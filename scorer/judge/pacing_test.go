package judge

import (
	"fmt"
	"testing"
	"time"
)

// TestAdmitSpreadsTheBudget: a steady stream of 40 runs a minute against a
// metric budget of 4 calls a minute, each run one call. First-come would
// give the budget to the first 4 runs of every minute; with admission the
// admitted runs are spread over the minute, no admitted run is refused
// by the limit, and the budget is used.
func TestAdmitSpreadsTheBudget(t *testing.T) {
	start := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	now := start
	b := NewBudget("general_quality_v1", BudgetConfig{CallsPerMinute: 4}, func() time.Time { return now })
	const perMinute, minutes = 40, 5
	admittedAt := map[int][]float64{} // minute -> offsets (0..1) of admitted runs
	refused := 0
	for i := range perMinute * minutes {
		now = start.Add(time.Duration(i) * time.Minute / perMinute)
		if !b.Admit(fmt.Sprintf("%032x", i*7919)) {
			continue
		}
		r, err := b.Reserve(100, 0)
		if err != nil {
			refused++
			continue
		}
		r.Commit(100, 0)
		m := i / perMinute
		admittedAt[m] = append(admittedAt[m], float64(i%perMinute)/perMinute)
	}
	total := 0
	for m := range minutes {
		offs := admittedAt[m]
		total += len(offs)
		if m == 0 {
			continue // no history yet
		}
		if len(offs) < 2 {
			t.Errorf("minute %d: %d runs admitted, want the budget used", m, len(offs))
			continue
		}
		sum, late := 0.0, 0
		for _, o := range offs {
			sum += o
			if o >= 0.5 {
				late++
			}
		}
		if mean := sum / float64(len(offs)); mean < 0.25 || mean > 0.75 || late == 0 {
			t.Errorf("minute %d: admitted at %v (mean %.2f), not spread over the minute", m, offs, mean)
		}
	}
	if refused > 2 {
		t.Errorf("%d admitted runs refused by the limit", refused)
	}
	if total < 3*minutes {
		t.Errorf("%d runs admitted in %d minutes with 4 a minute allowed: the budget is left unused", total, minutes)
	}
	t.Logf("admitted per minute: %v, refused after admission: %d", admittedAt, refused)
}

// An unlimited or nil budget admits every run.
func TestAdmitUnlimited(t *testing.T) {
	var nilBudget *Budget
	if !nilBudget.Admit("a") || !NewBudget("b", BudgetConfig{}, nil).Admit("a") {
		t.Fatal("an unlimited budget refused a run")
	}
}
