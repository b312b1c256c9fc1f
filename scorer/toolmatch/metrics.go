package toolmatch

import "github.com/evalsidecar/evalsidecar/scorer"

// Metrics lists the tool-call and trajectory metrics of Vertex AI, Google
// ADK and Ragas. They run when configured, on instances with a reference
// trajectory or tool-call output.
func Metrics() []scorer.Entry {
	binary := scorer.Ratio(scorer.HigherIsBetter, "1 when the calls match the reference, else 0").WithPass(">=", 1)
	share := scorer.Ratio(scorer.HigherIsBetter, "agreement of the calls with the reference")
	return []scorer.Entry{
		{Name: MetricToolCallValid, New: newVertexToolCall(MetricToolCallValid),
			Semantics: scorer.Ratio(scorer.HigherIsBetter, "1 when the prediction holds valid tool calls").WithPass(">=", 1)},
		{Name: MetricToolNameMatch, New: newVertexToolCall(MetricToolNameMatch), Semantics: binary},
		{Name: MetricToolParameterKeyMatch, New: newVertexToolCall(MetricToolParameterKeyMatch), Semantics: share},
		{Name: MetricToolParameterKVMatch, New: newVertexToolCall(MetricToolParameterKVMatch), Semantics: share},
		{Name: MetricTrajectoryExactMatch, New: newVertexTrajectory(MetricTrajectoryExactMatch), Semantics: binary},
		{Name: MetricTrajectoryInOrderMatch, New: newVertexTrajectory(MetricTrajectoryInOrderMatch), Semantics: binary},
		{Name: MetricTrajectoryAnyOrderMatch, New: newVertexTrajectory(MetricTrajectoryAnyOrderMatch), Semantics: binary},
		{Name: MetricTrajectoryPrecision, New: newVertexTrajectory(MetricTrajectoryPrecision), Semantics: share},
		{Name: MetricTrajectoryRecall, New: newVertexTrajectory(MetricTrajectoryRecall), Semantics: share},
		{Name: MetricTrajectorySingleToolUse, New: newVertexTrajectory(MetricTrajectorySingleToolUse),
			Semantics: scorer.Ratio(scorer.HigherIsBetter, "1 when the named tool was used").WithPass(">=", 1)},
		// Its pass rule is its threshold parameter (adkToolTrajectory.Semantics).
		{Name: MetricToolTrajectoryAvgScore, New: newADKToolTrajectory},
		{Name: MetricRagasToolCallAccuracy, New: newRagasToolCallAccuracy, Semantics: share},
		{Name: MetricRagasToolCallF1, New: scorer.NoParams(scorer.Func(MetricRagasToolCallF1, scorer.InPredictedTrajectory|scorer.InReferenceTrajectory, ragasToolCallF1)), Semantics: share},
	}
}
