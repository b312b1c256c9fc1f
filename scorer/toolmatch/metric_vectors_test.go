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
