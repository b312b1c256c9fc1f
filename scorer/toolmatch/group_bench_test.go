package toolmatch_test

import (
	"context"
	"errors"
	"testing"

	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/runhealth"
	"github.com/evalsidecar/evalsidecar/scorer/scorertest"
	"github.com/evalsidecar/evalsidecar/scorer/toolmatch"
)

// BenchmarkToolMetricsGroup scores every tool-call metric that runs on a
// traced run with a reference trajectory (the trajectory metrics of
// Vertex AI, Google ADK and Ragas, and the run-health tool metrics)
// together on one new Instance per iteration, so that what they share
// is computed once, as in an evaluation.
func BenchmarkToolMetricsGroup(b *testing.B) {
	r := scorertest.Registry(append(toolmatch.Metrics(), runhealth.Metrics()...))
	var ms []scorer.Metric
	for _, name := range []string{
		toolmatch.MetricTrajectoryExactMatch, toolmatch.MetricTrajectoryInOrderMatch,
		toolmatch.MetricTrajectoryAnyOrderMatch, toolmatch.MetricTrajectoryPrecision,
		toolmatch.MetricTrajectoryRecall, toolmatch.MetricTrajectorySingleToolUse,
		toolmatch.MetricToolTrajectoryAvgScore, toolmatch.MetricRagasToolCallF1,
		toolmatch.MetricRagasToolCallAccuracy, runhealth.MetricRepeatedToolCallRate,
		runhealth.MetricToolArgsValid, runhealth.MetricToolErrorRate,
	} {
		mc := scorer.MetricConfig{Name: name}
		if name == toolmatch.MetricTrajectorySingleToolUse {
			mc.Params = map[string]any{toolmatch.ParamToolName: "tool_3"}
		}
		built, err := r.Build([]scorer.MetricConfig{mc})
		if err != nil {
			b.Fatal(err)
		}
		ms = append(ms, built[0])
	}
	pred, ref := scorertest.Trajectories()
	for i := range pred {
		pred[i].ArgumentsValid = true // as the extractor sets it
	}
	newIn := func() *scorer.Instance {
		return &scorer.Instance{
			PredictedTrajectory: pred, ReferenceTrajectory: ref,
			Invocations: []scorer.Invocation{{PredictedToolCalls: pred, ReferenceToolCalls: ref, HasReference: true}},
			Has:         scorer.InPredictedTrajectory | scorer.InReferenceTrajectory | scorer.InInvocations,
		}
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		in := newIn()
		for _, m := range ms {
			if _, err := m.Score(ctx, in); err != nil && !errors.Is(err, scorer.ErrNotApplicable) {
				b.Fatalf("%s: %v", m.Name(), err)
			}
		}
	}
}
