package scorer

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
)

// constMetric scores a constant.
type constMetric struct {
	name  string
	score float64
}

func (m constMetric) Name() string  { return m.name }
func (m constMetric) Needs() Inputs { return 0 }
func (m constMetric) Score(context.Context, *Instance) (Result, error) {
	return Result{Score: m.score}, nil
}

func TestRegistryRegister(t *testing.T) {
	r := NewRegistry()
	f := func(params map[string]any) (Metric, error) {
		v, err := Params(params).Int("value", 1)
		if err != nil {
			return nil, err
		}
		return constMetric{name: "custom", score: float64(v)}, nil
	}
	if err := r.Register("custom", f); err != nil {
		t.Fatal(err)
	}
	if err := r.Register("custom", f); err == nil || !strings.Contains(err.Error(), "already registered") {
		t.Errorf("second Register: %v", err)
	}
	if err := r.Register("taken", NoParams(constMetric{name: "taken"})); err != nil {
		t.Fatal(err)
	}
	if err := r.Register("taken", f); err == nil {
		t.Error("registering over another metric succeeded")
	}
	if err := r.Register("", f); err == nil {
		t.Error("empty name accepted")
	}
	if err := r.Register("nil", nil); err == nil {
		t.Error("nil factory accepted")
	}
	ms, err := r.Build([]MetricConfig{{Name: "custom", Params: map[string]any{"value": 3}}, {Name: "taken"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 2 || ms[0].Name() != "custom" || ms[1].Name() != "taken" {
		t.Fatalf("built %v", ms)
	}
	if _, err := r.Build([]MetricConfig{{Name: "custom", Params: map[string]any{"value": "x"}}}); err == nil ||
		!strings.Contains(err.Error(), `metric "custom": param "value"`) {
		t.Errorf("factory error not attributed: %v", err)
	}
	// Registries are independent: no global state.
	if _, err := NewRegistry().Build([]MetricConfig{{Name: "custom"}}); err == nil {
		t.Error("a fresh registry knows a metric registered on another one")
	}
	names := r.Names()
	if !slices.Equal(names, []string{"custom", "taken"}) {
		t.Errorf("Names = %v, want custom and taken, sorted", names)
	}
}

// judgedConst is a constant metric that names a judge.
type judgedConst struct{ constMetric }

func (judgedConst) JudgeName() string { return "primary" }

func TestRenamedJudgeMetricStaysJudged(t *testing.T) {
	r := NewRegistry()
	if err := r.Register("judged", func(map[string]any) (Metric, error) {
		return judgedConst{constMetric{name: "judged", score: 1}}, nil
	}); err != nil {
		t.Fatal(err)
	}
	if err := r.Register("latency", NoParams(constMetric{name: "latency"})); err != nil {
		t.Fatal(err)
	}
	ms, err := r.Build([]MetricConfig{{Name: "my_judged", Type: "judged"}, {Name: "my_latency", Type: "latency"}})
	if err != nil {
		t.Fatal(err)
	}
	j, ok := ms[0].(Judged)
	if !ok || j.Name() != "my_judged" || j.JudgeName() != "primary" {
		t.Errorf("renamed judge metric: Judged=%v name=%q", ok, ms[0].Name())
	}
	if _, ok := ms[1].(Judged); ok {
		t.Error("a renamed deterministic metric became Judged")
	}
	if _, ok := ms[0].(Precondition); ok {
		t.Error("a judge metric without a precondition got one")
	}
	res, err := ms[0].Score(t.Context(), &Instance{})
	if err != nil || res.Metric != "my_judged" {
		t.Errorf("Score = %+v, %v", res, err)
	}
}

// comparingConst is a judged constant metric with a Precondition.
type comparingConst struct{ judgedConst }

func (comparingConst) Applicable(*Instance) error { return &NotApplicableError{Reason: "no_case_id"} }

// TestConfiguredMetricKeepsPrecondition: the judge stage sees a pairwise
// metric's Precondition through its configuration.
func TestConfiguredMetricKeepsPrecondition(t *testing.T) {
	r := NewRegistry()
	if err := r.Register("cmp", NoParams(comparingConst{judgedConst{constMetric{name: "cmp", score: 1}}})); err != nil {
		t.Fatal(err)
	}
	ms, err := r.Build([]MetricConfig{{Name: "my_cmp", Type: "cmp"}})
	if err != nil {
		t.Fatal(err)
	}
	p, ok := ms[0].(Precondition)
	if _, judged := ms[0].(Judged); !ok || !judged {
		t.Fatalf("configured metric: Precondition %v, Judged %v", ok, judged)
	}
	if err := p.Applicable(&Instance{}); !errors.Is(err, ErrNotApplicable) {
		t.Errorf("Applicable = %v", err)
	}
}
