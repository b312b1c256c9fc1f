package scorer

import (
	"context"
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

func TestRegistryBuildErrors(t *testing.T) {
	cases := []struct {
		name string
		cfgs []MetricConfig
		want []string // substrings of the error
	}{
		{"unknown metric", []MetricConfig{{Name: "latency"}, {Name: "no_such_metric"}},
			[]string{`metric "no_such_metric"`, "unknown metric", "tool_args_valid"}},
		{"unknown param", []MetricConfig{{Name: "latency", Params: map[string]any{"unit": "ms"}}},
			[]string{`metric "latency"`, `param "unit"`, "unknown parameter"}},
		{"unknown param of a metric with params", []MetricConfig{{Name: "tool_args_valid", Params: map[string]any{"max_reason": 1}}},
			[]string{`metric "tool_args_valid"`, `param "max_reason"`, "max_reasons"}},
		{"param of wrong type", []MetricConfig{{Name: "tool_args_valid", Params: map[string]any{"max_reasons": "three"}}},
			[]string{`metric "tool_args_valid"`, `param "max_reasons"`, "integer"}},
		{"param not integral", []MetricConfig{{Name: "tool_args_valid", Params: map[string]any{"max_reasons": 1.5}}},
			[]string{`param "max_reasons"`, "integer"}},
		{"param out of range", []MetricConfig{{Name: "tool_args_valid", Params: map[string]any{"schema_cache_size": 0}}},
			[]string{`metric "tool_args_valid"`, `param "schema_cache_size"`, "between 1 and"}},
		{"negative reasons", []MetricConfig{{Name: "tool_args_valid", Params: map[string]any{"max_reasons": -1}}},
			[]string{`param "max_reasons"`, "between 0 and 100"}},
		{"twice", []MetricConfig{{Name: "failure"}, {Name: "failure"}}, []string{`metric "failure"`, "twice"}},
		{"empty name", []MetricConfig{{}}, []string{"metrics[0]", "empty"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewRegistry().Build(tc.cfgs)
			if err == nil {
				t.Fatal("Build succeeded")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

func TestRegistryParamsAccepted(t *testing.T) {
	for _, v := range []any{int(7), int64(7), uint8(7), float64(7)} {
		ms, err := NewRegistry().Build([]MetricConfig{{Name: MetricToolArgsValid, Params: map[string]any{ParamMaxReasons: v}}})
		if err != nil {
			t.Fatalf("%T: %v", v, err)
		}
		if got := ms[0].(*toolArgsValid).maxReasons; got != 7 {
			t.Errorf("%T: max_reasons = %d, want 7", v, got)
		}
	}
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
	if err := r.Register(MetricLatency, f); err == nil {
		t.Error("registering over a built-in succeeded")
	}
	if err := r.Register("", f); err == nil {
		t.Error("empty name accepted")
	}
	if err := r.Register("nil", nil); err == nil {
		t.Error("nil factory accepted")
	}
	ms, err := r.Build([]MetricConfig{{Name: "custom", Params: map[string]any{"value": 3}}, {Name: MetricFailure}})
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 2 || ms[0].Name() != "custom" || ms[1].Name() != MetricFailure {
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
	if len(names) != len(catalog())+1 || !slices.IsSorted(names) || !slices.Contains(names, "custom") {
		t.Errorf("Names = %v, want the %d catalog metrics and custom, sorted", names, len(catalog()))
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
	res, err := ms[0].Score(t.Context(), &Instance{})
	if err != nil || res.Metric != "my_judged" {
		t.Errorf("Score = %+v, %v", res, err)
	}
}
