package toolmatch

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/scorertest"
)

// trajVector is one reference vector of testdata/trajectory_vectors.json
// (the tool-call and trajectory entries of the shared metric vectors).
type trajVector struct {
	Metric        string          `json:"metric"`
	Input         json.RawMessage `json:"input"`
	Expected      float64         `json:"expected"`
	Tolerance     float64         `json:"tolerance"`
	Ambiguous     bool            `json:"ambiguous"`
	AltExpected   *float64        `json:"alt_expected"`
	Note          string          `json:"note"`
	PerInvocation []float64       `json:"per_invocation"`
}

// trajVectorCall is a call in any of the vectors' spellings; the argument
// JSON is kept as written, so 1 and 1.0 stay distinct.
type trajVectorCall struct {
	ToolName  string          `json:"tool_name"`
	ToolInput json.RawMessage `json:"tool_input"`
	Name      string          `json:"name"`
	Args      json.RawMessage `json:"args"`
}

func (c trajVectorCall) toolCall() agentrun.ToolCall {
	if c.ToolName != "" {
		return agentrun.ToolCall{Name: c.ToolName, Arguments: string(c.ToolInput)}
	}
	return agentrun.ToolCall{Name: c.Name, Arguments: string(c.Args)}
}

func trajToolCalls(cs []trajVectorCall) []agentrun.ToolCall {
	out := make([]agentrun.ToolCall, len(cs))
	for i, c := range cs {
		out[i] = c.toolCall()
	}
	return out
}

// trajVectorInput is the union of the vectors' input fields.
type trajVectorInput struct {
	PredictedTrajectory []trajVectorCall `json:"predicted_trajectory"`
	ReferenceTrajectory []trajVectorCall `json:"reference_trajectory"`
	ToolName            string           `json:"tool_name"`
	Prediction          string           `json:"prediction"`
	Reference           string           `json:"reference"`
	MatchType           string           `json:"match_type"`
	IgnoreArgs          bool             `json:"ignore_args"`
	Invocations         []struct {
		Actual   []trajVectorCall `json:"actual_tool_calls"`
		Expected []trajVectorCall `json:"expected_tool_calls"`
	} `json:"invocations"`
	PredictedToolCalls []trajVectorCall `json:"predicted_tool_calls"`
	ReferenceToolCalls []trajVectorCall `json:"reference_tool_calls"`
	StrictOrder        *bool            `json:"strict_order"`
}

// trajVectorCase turns a vector into the metric config and Instance the
// sidecar would build for it.
func trajVectorCase(t *testing.T, v trajVector) (scorer.MetricConfig, *scorer.Instance) {
	t.Helper()
	var in trajVectorInput
	if err := json.Unmarshal(v.Input, &in); err != nil {
		t.Fatal(err)
	}
	switch {
	case strings.HasPrefix(v.Metric, "trajectory_"):
		inst := &scorer.Instance{
			PredictedTrajectory: trajToolCalls(in.PredictedTrajectory),
			ReferenceTrajectory: trajToolCalls(in.ReferenceTrajectory),
			Has:                 scorer.InPredictedTrajectory | scorer.InReferenceTrajectory,
		}
		cfg := scorer.MetricConfig{Name: v.Metric}
		if v.Metric == MetricTrajectorySingleToolUse {
			inst.Has = scorer.InPredictedTrajectory
			cfg.Params = map[string]any{ParamToolName: in.ToolName}
		}
		return cfg, inst
	case strings.HasPrefix(v.Metric, "tool_"):
		return scorer.MetricConfig{Name: v.Metric}, &scorer.Instance{
			Prediction: in.Prediction,
			Reference:  in.Reference,
			Has:        scorer.InPrediction | scorer.InReference,
		}
	case v.Metric == "adk_tool_trajectory_avg_score":
		inst := &scorer.Instance{Has: scorer.InInvocations}
		for i, iv := range in.Invocations {
			inst.Invocations = append(inst.Invocations, scorer.Invocation{
				ID:                 fmt.Sprint(i),
				PredictedToolCalls: trajToolCalls(iv.Actual),
				ReferenceToolCalls: trajToolCalls(iv.Expected),
				HasReference:       true,
			})
		}
		return scorer.MetricConfig{Name: MetricToolTrajectoryAvgScore, Params: map[string]any{
			ParamMatchType:  in.MatchType,
			ParamIgnoreArgs: in.IgnoreArgs,
		}}, inst
	case strings.HasPrefix(v.Metric, "ragas_"):
		cfg := scorer.MetricConfig{Name: v.Metric}
		if in.StrictOrder != nil {
			cfg.Params = map[string]any{ParamStrictOrder: *in.StrictOrder}
		}
		return cfg, &scorer.Instance{
			PredictedTrajectory: trajToolCalls(in.PredictedToolCalls),
			ReferenceTrajectory: trajToolCalls(in.ReferenceToolCalls),
			Has:                 scorer.InPredictedTrajectory | scorer.InReferenceTrajectory,
		}
	}
	t.Fatalf("no mapping for vector metric %q", v.Metric)
	return scorer.MetricConfig{}, nil
}

func loadTrajVectors(t testing.TB) []trajVector {
	t.Helper()
	b, err := os.ReadFile("testdata/trajectory_vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var vs []trajVector
	if err := json.Unmarshal(b, &vs); err != nil {
		t.Fatal(err)
	}
	return vs
}

// TestTrajectoryVectors scores every reference vector through the
// registry and the Metric API. Ambiguous vectors accept either value.
func TestTrajectoryVectors(t *testing.T) {
	vs := loadTrajVectors(t)
	if len(vs) < 60 {
		t.Fatalf("only %d vectors", len(vs))
	}
	reg := scorertest.Registry(Metrics())
	for i, v := range vs {
		t.Run(fmt.Sprintf("%02d_%s", i, v.Metric), func(t *testing.T) {
			cfg, in := trajVectorCase(t, v)
			ms, err := reg.Build([]scorer.MetricConfig{cfg})
			if err != nil {
				t.Fatal(err)
			}
			m := ms[0]
			if miss := in.Missing(m.Needs()); miss != 0 {
				t.Fatalf("inputs missing: %b", miss)
			}
			r, err := m.Score(context.Background(), in)
			if err != nil {
				t.Fatalf("score: %v (%s)", err, v.Note)
			}
			ok := math.Abs(r.Score-v.Expected) <= v.Tolerance
			if !ok && v.AltExpected != nil {
				ok = math.Abs(r.Score-*v.AltExpected) <= v.Tolerance
			}
			if !ok {
				t.Fatalf("score %v, want %v (alt %v): %s", r.Score, v.Expected, v.AltExpected, v.Note)
			}
			if v.PerInvocation != nil {
				per, _ := r.Details["per_invocation"].([]float64)
				if fmt.Sprint(per) != fmt.Sprint(v.PerInvocation) {
					t.Errorf("per_invocation %v, want %v", per, v.PerInvocation)
				}
				want := "failed"
				if r.Score >= 1 {
					want = "passed"
				}
				if r.Label != want {
					t.Errorf("label %q at threshold 1, want %q", r.Label, want)
				}
			}
		})
	}
}

// repeatedMetric scores Repeated on the predicted trajectory, as the
// run-health metric repeated_tool_call_rate does, so that the shared
// decoder is checked with the metrics of this package.
type repeatedMetric struct{}

func (repeatedMetric) Name() string         { return "repeated" }
func (repeatedMetric) Needs() scorer.Inputs { return scorer.InPredictedTrajectory }
func (repeatedMetric) Score(_ context.Context, in *scorer.Instance) (scorer.Result, error) {
	n := Repeated(in.PredictedTrajectory, SharedDecoder(in))
	return scorer.Result{Metric: "repeated", Score: float64(n)}, nil
}

// TestSharedValuesOverVectors: on the instance of every reference vector
// merged with the next vector's (so that trajectories, invocations and
// tool-call outputs meet), each metric of the package in each of its
// modes scores an instance the others have used exactly as a fresh one
// (scorertest.SharedValues).
func TestSharedValuesOverVectors(t *testing.T) {
	vs := loadTrajVectors(t)
	reg := scorertest.Registry(Metrics())
	ms := []scorer.Metric{repeatedMetric{}}
	configs := []scorer.MetricConfig{
		{Name: MetricTrajectorySingleToolUse, Params: map[string]any{ParamToolName: "test_func"}},
		{Name: MetricToolParameterKVMatch, Params: map[string]any{ParamUseStrictStringMatch: true}},
		{Name: MetricRagasToolCallAccuracy, Params: map[string]any{ParamStrictOrder: false}},
		{Name: MetricRagasToolCallAccuracy, Params: map[string]any{ParamArgComparison: "levenshtein"}},
	}
	for _, e := range Metrics() {
		if e.Name != MetricTrajectorySingleToolUse {
			configs = append(configs, scorer.MetricConfig{Name: e.Name})
		}
	}
	for _, mt := range []string{"EXACT", "IN_ORDER", "ANY_ORDER"} {
		for _, ignore := range []bool{false, true} {
			configs = append(configs, scorer.MetricConfig{Name: MetricToolTrajectoryAvgScore, Params: map[string]any{ParamMatchType: mt, ParamIgnoreArgs: ignore}})
		}
	}
	for _, mc := range configs {
		built, err := reg.Build([]scorer.MetricConfig{mc})
		if err != nil {
			t.Fatal(err)
		}
		ms = append(ms, built[0])
	}
	for i := range vs {
		a, b := vs[i], vs[(i+1)%len(vs)]
		newIn := func() *scorer.Instance {
			_, in := trajVectorCase(t, a)
			_, other := trajVectorCase(t, b)
			if in.Has&scorer.InPredictedTrajectory == 0 {
				in.PredictedTrajectory, in.ReferenceTrajectory = other.PredictedTrajectory, other.ReferenceTrajectory
			}
			if in.Has&scorer.InInvocations == 0 {
				in.Invocations = other.Invocations
			}
			if in.Has&scorer.InPrediction == 0 {
				in.Prediction, in.Reference = other.Prediction, other.Reference
			}
			in.Has |= other.Has
			return in
		}
		t.Run(fmt.Sprintf("%02d_%s", i, a.Metric), func(t *testing.T) { scorertest.SharedValues(t, ms, newIn, uint64(i)) })
	}
}
