package catalog

import (
	"context"
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
// any order and concurrently: every metric of the catalog, with the
// parameter variants that derive different values, on the benchmark's
// canary run, a run with nested arguments written in another order in
// its reference, and a dataset row of tool-call outputs.
func TestDerivedValuesDoNotChangeScores(t *testing.T) {
	r := NewRegistry()
	var ms []scorer.Metric
	build := func(mc scorer.MetricConfig) {
		built, err := r.Build([]scorer.MetricConfig{mc})
		if err != nil {
			t.Fatal(err)
		}
		ms = append(ms, built[0])
	}
	for _, name := range r.Names() {
		mc := scorer.MetricConfig{Name: name}
		switch name {
		case "cel":
			continue
		case toolmatch.MetricTrajectorySingleToolUse:
			mc.Params = map[string]any{toolmatch.ParamToolName: "tool_3"}
		}
		build(mc)
	}
	for _, typ := range []string{"rouge1", "rouge2", "rouge3", "rougeL", "rougeLsum"} {
		for _, stem := range []bool{false, true} {
			for _, split := range []bool{false, true} {
				build(scorer.MetricConfig{Name: text.MetricRouge, Params: map[string]any{
					text.ParamRougeType: typ, text.ParamUseStemmer: stem, text.ParamSplitSummaries: split,
				}})
			}
		}
	}
	for _, mt := range []string{"EXACT", "IN_ORDER", "ANY_ORDER"} {
		build(scorer.MetricConfig{Name: toolmatch.MetricToolTrajectoryAvgScore, Params: map[string]any{toolmatch.ParamMatchType: mt}})
	}
	build(scorer.MetricConfig{Name: toolmatch.MetricRagasToolCallAccuracy, Params: map[string]any{toolmatch.ParamStrictOrder: false}})

	pred, ref := scorertest.Trajectories()
	// nested arguments equal as JSON but written in another order
	nestedPred := append(slices.Clone(pred), agentrun.ToolCall{Name: "lookup", Arguments: `{"f": {"b": 1, "a": [2, {"y": 0, "x": 1}]}}`})
	nestedRef := append(slices.Clone(pred), agentrun.ToolCall{Name: "lookup", Arguments: `{"f": {"a": [2, {"x": 1, "y": 0}], "b": 1}}`})
	canary := benchCaseRun(t)
	refText := testtext.Answer(200, 3)
	for _, tc := range []struct {
		name  string
		newIn func() *scorer.Instance
	}{
		{"canary", func() *scorer.Instance {
			in := scorer.FromTrajectory(canary)
			in.Reference, in.ReferenceTrajectory = refText, ref
			in.Has |= scorer.InReference | scorer.InReferenceTrajectory | scorer.InInvocations
			in.Invocations = []scorer.Invocation{{
				UserContent: in.Prompt, Response: in.Response, Reference: refText,
				PredictedToolCalls: in.PredictedTrajectory, ReferenceToolCalls: ref, HasReference: true,
			}}
			return in
		}},
		{"nested arguments", func() *scorer.Instance {
			return &scorer.Instance{
				Response: testtext.Answer(200, 1), Reference: "Returns are accepted.\nRefunds take  3 days!\n\nThank you.", Prompt: "question",
				PredictedTrajectory: nestedPred, ReferenceTrajectory: nestedRef,
				Has: scorer.InResponse | scorer.InReference | scorer.InPrompt | scorer.InPredictedTrajectory | scorer.InReferenceTrajectory,
			}
		}},
		{"tool-call outputs", func() *scorer.Instance {
			return &scorer.Instance{
				Prediction: scorertest.ToolCallOutput(pred), Reference: scorertest.ToolCallOutput(ref),
				PredictedTrajectory: pred, ReferenceTrajectory: ref,
				Has: scorer.InPrediction | scorer.InReference | scorer.InPredictedTrajectory | scorer.InReferenceTrajectory,
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) { scorertest.SharedValues(t, ms, tc.newIn, 1) })
	}
}
