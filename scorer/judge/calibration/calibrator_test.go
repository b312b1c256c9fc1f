package calibration

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	dto "github.com/prometheus/client_model/go"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/evalsidecar/evalsidecar/scorer"
)

func newCalibrator(t *testing.T, cfg Config) *Calibrator {
	t.Helper()
	c, err := New(cfg, telemetry.Settings{Registerer: prometheus.NewRegistry()})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func judged(c *Calibrator, t *testing.T, trace, metric string, score float64, label string) {
	t.Helper()
	err := c.Export(t.Context(), &scorer.Evaluation{Trajectory: &agentrun.Trajectory{TraceID: trace}, FollowUp: true,
		Results: []scorer.Result{{Metric: metric, Score: score, Label: label, Judge: &scorer.JudgeUsage{Model: "m"}}}})
	if err != nil {
		t.Fatal(err)
	}
}

func feedback(c *Calibrator, t *testing.T, fs ...scorer.Feedback) {
	t.Helper()
	if err := c.Export(t.Context(), &scorer.Evaluation{Feedback: fs}); err != nil {
		t.Fatal(err)
	}
}

// series returns the value of one series of v, and whether v has it.
func series(t *testing.T, v *prometheus.GaugeVec, labels ...string) (float64, bool) {
	t.Helper()
	ch := make(chan prometheus.Metric, 100)
	v.Collect(ch)
	close(ch)
	want := fmt.Sprint(labels)
	for m := range ch {
		var pb dto.Metric
		if err := m.Write(&pb); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, lp := range pb.GetLabel() {
			got = append(got, lp.GetValue())
		}
		if fmt.Sprint(got) == want {
			return pb.GetGauge().GetValue(), true
		}
	}
	return 0, false
}

// TestLabelsKappa pairs the textbook 2×2 example (Wikipedia, "Cohen's
// kappa": 50 proposals, both raters yes on 20, no on 15, rater A yes and
// B no on 5, A no and B yes on 10; kappa 0.4), half the feedback sent
// before the judge's score and half after.
func TestLabelsKappa(t *testing.T) {
	cfg := DefaultConfig()
	cfg.MinLabels = 50
	cfg.Floor = map[string]float64{"approval": 0.6}
	c := newCalibrator(t, cfg)
	var cells [][2]string
	add := func(n int, judge, human string) {
		for range n {
			cells = append(cells, [2]string{judge, human})
		}
	}
	add(20, "yes", "yes")
	add(5, "yes", "no")
	add(10, "no", "yes")
	add(15, "no", "no")
	for i, cell := range cells {
		trace := fmt.Sprintf("%032x", i+1)
		fb := scorer.Feedback{TraceID: trace, Metric: "approval", Label: cell[1]}
		if i%2 == 0 {
			feedback(c, t, fb)
			judged(c, t, trace, "approval", 0, cell[0])
		} else {
			judged(c, t, trace, "approval", 0, cell[0])
			feedback(c, t, fb)
		}
		if i == 48 {
			if _, ok := series(t, c.agreement, "approval", StatKappa); ok {
				t.Fatal("agreement exported before min_labels runs are labelled")
			}
		}
	}
	if got, ok := series(t, c.agreement, "approval", StatKappa); !ok || math.Abs(got-0.4) > 1e-12 {
		t.Errorf("kappa = %v (exported %v), want 0.4", got, ok)
	}
	if _, ok := series(t, c.agreement, "approval", StatSpearman); ok {
		t.Error("spearman exported for labels")
	}
	if got, _ := series(t, c.labels, "approval"); got != 50 {
		t.Errorf("labels = %v, want 50", got)
	}
	if got, ok := series(t, c.floor, "approval", StatKappa); !ok || got != 0.6 {
		t.Errorf("floor{statistic=kappa} = %v (%v), want 0.6", got, ok)
	}
}

// TestNumbersSpearmanMAE checks scales against Spearman's formula for
// distinct ranks, 1 − 6Σd²/(n(n²−1)), and the mean of |judge − human|.
func TestNumbersSpearmanMAE(t *testing.T) {
	cfg := DefaultConfig()
	cfg.MinLabels = 3
	cfg.Floor = map[string]float64{"helpfulness": 0.5}
	c := newCalibrator(t, cfg)
	judge := []float64{0.1, 0.4, 0.35, 0.8, 0.95, 0.6, 0.05, 0.7, 0.2, 0.5, 0.65, 0.3}
	human := []float64{0.2, 0.3, 0.5, 0.9, 0.7, 0.6, 0.0, 0.8, 0.1, 0.45, 0.4, 0.35}
	for i := range judge {
		trace := fmt.Sprintf("%032x", i+1)
		judged(c, t, trace, "helpfulness", judge[i], "")
		feedback(c, t, scorer.Feedback{TraceID: trace, Metric: "helpfulness", Value: human[i], HasValue: true})
	}
	rank := func(xs []float64, x float64) int {
		r := 1
		for _, y := range xs {
			if y < x {
				r++
			}
		}
		return r
	}
	n := float64(len(judge))
	var d2, abs float64
	for i := range judge {
		d := float64(rank(judge, judge[i]) - rank(human, human[i]))
		d2 += d * d
		abs += math.Abs(judge[i] - human[i])
	}
	wantRho, wantMAE := 1-6*d2/(n*(n*n-1)), abs/n
	if got, ok := series(t, c.agreement, "helpfulness", StatSpearman); !ok || math.Abs(got-wantRho) > 1e-12 {
		t.Errorf("spearman = %v (%v), want %v", got, ok, wantRho)
	}
	if got, ok := series(t, c.agreement, "helpfulness", StatMAE); !ok || math.Abs(got-wantMAE) > 1e-12 {
		t.Errorf("mae = %v (%v), want %v", got, ok, wantMAE)
	}
	if _, ok := series(t, c.agreement, "helpfulness", StatKappa); ok {
		t.Error("kappa exported for 12 distinct values on each side")
	}
	if got, ok := series(t, c.floor, "helpfulness", StatSpearman); !ok || got != 0.5 {
		t.Errorf("floor{statistic=spearman} = %v (%v), want 0.5", got, ok)
	}
}

// TestWindowKeepsLastRuns: 30 disagreeing runs, then window=10 agreeing
// ones: only the last 10 count.
func TestWindowKeepsLastRuns(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Window, cfg.MinLabels = 10, 10
	c := newCalibrator(t, cfg)
	for i := range 40 {
		trace := fmt.Sprintf("%032x", i+1)
		label := []string{"pass", "fail"}[i%2]
		human := label
		if i < 30 {
			human = []string{"fail", "pass"}[i%2]
		}
		judged(c, t, trace, "m", 0, label)
		feedback(c, t, scorer.Feedback{TraceID: trace, Metric: "m", Label: human})
	}
	if got, _ := series(t, c.labels, "m"); got != 10 {
		t.Errorf("labels = %v, want 10", got)
	}
	if got, ok := series(t, c.agreement, "m", StatKappa); !ok || got != 1 {
		t.Errorf("kappa over the last 10 = %v (%v), want 1", got, ok)
	}
}

// TestBoundedAndCounted: with room for 2 entries, a third unpaired
// feedback (and a third unlabelled judge score) evicts the oldest,
// counted by kind; the evicted feedback never pairs; a second person's
// feedback on a run pairs with the score kept.
func TestBoundedAndCounted(t *testing.T) {
	cfg := DefaultConfig()
	cfg.MaxPending, cfg.MinLabels = 2, 1
	c := newCalibrator(t, cfg)
	for i := range 3 {
		feedback(c, t, scorer.Feedback{TraceID: fmt.Sprintf("f%d", i), Metric: "m", Label: "pass"})
		judged(c, t, fmt.Sprintf("s%d", i), "m", 0, "pass")
	}
	if got := testutil.ToFloat64(c.evicted.WithLabelValues("feedback")); got != 1 {
		t.Errorf("evicted{feedback} = %v, want 1", got)
	}
	if got := testutil.ToFloat64(c.evicted.WithLabelValues("score")); got != 1 {
		t.Errorf("evicted{score} = %v, want 1", got)
	}
	judged(c, t, "f0", "m", 0, "pass") // its feedback was evicted
	if _, ok := series(t, c.labels, "m"); ok {
		t.Error("an evicted feedback record was paired")
	}
	judged(c, t, "f2", "m", 0, "pass")
	feedback(c, t, scorer.Feedback{TraceID: "f2", Metric: "m", Label: "fail"})
	if got, _ := series(t, c.labels, "m"); got != 2 {
		t.Errorf("labels = %v, want 2 (two people on one run)", got)
	}
	// deterministic scores and session scores are not the judge's
	_ = c.Export(t.Context(), &scorer.Evaluation{Trajectory: &agentrun.Trajectory{TraceID: "d"},
		Results: []scorer.Result{{Metric: "m", Score: 1}}})
	feedback(c, t, scorer.Feedback{TraceID: "d", Metric: "m", Label: "pass"})
	if got, _ := series(t, c.labels, "m"); got != 2 {
		t.Errorf("labels = %v after a deterministic score, want 2", got)
	}
}

func TestConfigValidate(t *testing.T) {
	if err := DefaultConfig().Validate(); err != nil {
		t.Fatal(err)
	}
	bad := Config{Window: 0, MinLabels: 5, MaxPending: 0, Floor: map[string]float64{"a": 2, "b": math.NaN()}}
	err := bad.Validate()
	for _, want := range []string{"window:", "min_labels:", "max_pending:", "floor.a:", "floor.b:"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v lacks %q", err, want)
		}
	}
}
