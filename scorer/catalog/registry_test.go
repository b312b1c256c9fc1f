package catalog

import (
	"context"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/evalsidecar/evalsidecar/internal/testtext"
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/facts"
	"github.com/evalsidecar/evalsidecar/scorer/runhealth"
	"github.com/evalsidecar/evalsidecar/scorer/scorertest"
	"github.com/evalsidecar/evalsidecar/scorer/text"
	"github.com/evalsidecar/evalsidecar/scorer/toolmatch"
)

func TestDefaultMetrics(t *testing.T) {
	want := []string{"latency", "failure", "tool_call_count", "tool_error_rate", "repeated_tool_call_rate", "tool_args_valid", "unsupported_facts"}
	if got := DefaultNames(); !slices.Equal(got, want) {
		t.Errorf("default metrics = %v, want %v", got, want)
	}
	if _, err := NewRegistry().Build(DefaultMetrics()); err != nil {
		t.Errorf("default metrics do not build: %v", err)
	}
}

func TestRegistryNames(t *testing.T) {
	names := NewRegistry().Names()
	if !slices.IsSorted(names) {
		t.Errorf("Names not sorted: %v", names)
	}
	n := 1 // cel
	for _, family := range [][]scorer.Entry{runhealth.Metrics(), facts.Metrics(), text.Metrics(), toolmatch.Metrics()} {
		n += len(family)
		for _, e := range family {
			if !slices.Contains(names, e.Name) {
				t.Errorf("%s is not registered", e.Name)
			}
		}
	}
	if len(names) != n || !slices.Contains(names, "cel") {
		t.Errorf("Names = %v, want the %d family metrics and cel", names, n)
	}
}

func TestRegistryBuildErrors(t *testing.T) {
	cases := []struct {
		name string
		cfgs []scorer.MetricConfig
		want []string // substrings of the error
	}{
		{"unknown metric", []scorer.MetricConfig{{Name: "latency"}, {Name: "no_such_metric"}},
			[]string{`metric "no_such_metric"`, "unknown metric", "tool_args_valid"}},
		{"unknown param", []scorer.MetricConfig{{Name: "latency", Params: map[string]any{"unit": "ms"}}},
			[]string{`metric "latency"`, `param "unit"`, "unknown parameter"}},
		{"unknown param of a metric with params", []scorer.MetricConfig{{Name: "tool_args_valid", Params: map[string]any{"max_reason": 1}}},
			[]string{`metric "tool_args_valid"`, `param "max_reason"`, "max_reasons"}},
		{"param of wrong type", []scorer.MetricConfig{{Name: "tool_args_valid", Params: map[string]any{"max_reasons": "three"}}},
			[]string{`metric "tool_args_valid"`, `param "max_reasons"`, "integer"}},
		{"param not integral", []scorer.MetricConfig{{Name: "tool_args_valid", Params: map[string]any{"max_reasons": 1.5}}},
			[]string{`param "max_reasons"`, "integer"}},
		{"param out of range", []scorer.MetricConfig{{Name: "tool_args_valid", Params: map[string]any{"schema_cache_size": 0}}},
			[]string{`metric "tool_args_valid"`, `param "schema_cache_size"`, "between 1 and"}},
		{"negative reasons", []scorer.MetricConfig{{Name: "tool_args_valid", Params: map[string]any{"max_reasons": -1}}},
			[]string{`param "max_reasons"`, "between 0 and 100"}},
		{"twice", []scorer.MetricConfig{{Name: "failure"}, {Name: "failure"}}, []string{`metric "failure"`, "twice"}},
		{"empty name", []scorer.MetricConfig{{}}, []string{"metrics[0]", "empty"}},
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

func TestEvaluateBuiltinsNotApplicable(t *testing.T) {
	ms, err := NewRegistry().Build(DefaultMetrics())
	if err != nil {
		t.Fatal(err)
	}
	reg := prometheus.NewRegistry()
	e, err := scorer.NewEngine(scorer.DefaultConfig(), telemetry.Settings{Registerer: reg}, ms, nil, scorer.EngineOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// No start/end time and no tool calls: latency lacks its input; the
	// rates are undefined over zero calls.
	ev := e.Evaluate(context.Background(), scorer.FromTrajectory(&agentrun.Trajectory{TraceID: "x"}))
	want := []string{runhealth.MetricLatency, runhealth.MetricToolErrorRate, runhealth.MetricRepeatedToolCallRate, runhealth.MetricToolArgsValid, facts.MetricUnsupportedFacts}
	if !slices.Equal(ev.NotApplicable, want) {
		t.Errorf("NotApplicable = %v, want %v", ev.NotApplicable, want)
	}
	if len(ev.Results) != 2 || ev.Results[0].Metric != runhealth.MetricFailure || ev.Results[1].Metric != runhealth.MetricToolCallCount {
		t.Errorf("results = %+v", ev.Results)
	}
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	notApplicable := map[string]float64{}
	for _, mf := range mfs {
		if mf.GetName() != "evalsidecar_eval_not_applicable_total" {
			continue
		}
		for _, m := range mf.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "metric" {
					notApplicable[l.GetValue()] = m.GetCounter().GetValue()
				}
			}
		}
	}
	for _, m := range want {
		if notApplicable[m] != 1 {
			t.Errorf("not_applicable_total{metric=%q} = %v, want 1", m, notApplicable[m])
		}
	}
}

// TestBuiltinsRunInline: every deterministic metric is called without a
// deadline context, as the engine does for scorer.Inline metrics.
func TestBuiltinsRunInline(t *testing.T) {
	r := NewRegistry()
	for _, name := range r.Names() {
		if name == "cel" {
			continue // built from a user's expression
		}
		mc := scorer.MetricConfig{Name: name}
		if name == toolmatch.MetricTrajectorySingleToolUse {
			mc.Params = map[string]any{toolmatch.ParamToolName: "t"}
		}
		ms, err := r.Build([]scorer.MetricConfig{mc})
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := ms[0].(scorer.Inline); !ok {
			t.Errorf("%s is not scorer.Inline", name)
		}
	}
}

// TestDerivedValuesDoNotChangeScores: a metric scores an instance the
// other metrics have already used (sharing tokens, scores and decoded
// arguments through scorer.Derive) exactly as it scores a fresh one, in
// any order.
func TestDerivedValuesDoNotChangeScores(t *testing.T) {
	r := NewRegistry()
	var ms []scorer.Metric
	for _, name := range r.Names() {
		mc := scorer.MetricConfig{Name: name}
		switch name {
		case "cel":
			continue
		case toolmatch.MetricTrajectorySingleToolUse:
			mc.Params = map[string]any{toolmatch.ParamToolName: "tool_3"}
		}
		built, err := r.Build([]scorer.MetricConfig{mc})
		if err != nil {
			t.Fatal(err)
		}
		ms = append(ms, built[0])
	}
	pred, ref := scorertest.Trajectories()
	newIn := func() *scorer.Instance {
		return &scorer.Instance{
			Response: testtext.Answer(200, 1), Reference: testtext.Answer(200, 3), Prompt: "question",
			PredictedTrajectory: pred, ReferenceTrajectory: ref,
			Has: scorer.InResponse | scorer.InReference | scorer.InPrompt | scorer.InPredictedTrajectory | scorer.InReferenceTrajectory,
		}
	}
	fresh := map[string]scorer.Result{}
	for _, m := range ms {
		res, err := m.Score(t.Context(), newIn())
		if err == nil {
			fresh[m.Name()] = res
		}
	}
	if len(fresh) < 20 {
		t.Fatalf("only %d metrics scored the fixture", len(fresh))
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 5 {
		shared := newIn()
		order := rng.Perm(len(ms))
		for _, i := range order {
			m := ms[i]
			res, err := m.Score(t.Context(), shared)
			want, ok := fresh[m.Name()]
			if (err == nil) != ok {
				t.Fatalf("round %d, %s: error %v on a shared instance", round, m.Name(), err)
			}
			if ok && !reflect.DeepEqual(res, want) {
				t.Errorf("round %d, %s: %+v on a shared instance, %+v on a fresh one", round, m.Name(), res, want)
			}
		}
	}
}
