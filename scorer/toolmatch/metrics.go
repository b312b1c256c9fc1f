package toolmatch

import "github.com/evalsidecar/evalsidecar/scorer"

// Metrics lists the tool-call and trajectory metrics of Vertex AI, Google
// ADK and Ragas. They run when configured, on instances with a reference
// trajectory or tool-call output.
func Metrics() []scorer.Entry {
	return []scorer.Entry{
		{Name: MetricToolCallValid, New: newVertexToolCall(MetricToolCallValid)},
		{Name: MetricToolNameMatch, New: newVertexToolCall(MetricToolNameMatch)},
		{Name: MetricToolParameterKeyMatch, New: newVertexToolCall(MetricToolParameterKeyMatch)},
		{Name: MetricToolParameterKVMatch, New: newVertexToolCall(MetricToolParameterKVMatch)},
		{Name: MetricTrajectoryExactMatch, New: newVertexTrajectory(MetricTrajectoryExactMatch)},
		{Name: MetricTrajectoryInOrderMatch, New: newVertexTrajectory(MetricTrajectoryInOrderMatch)},
		{Name: MetricTrajectoryAnyOrderMatch, New: newVertexTrajectory(MetricTrajectoryAnyOrderMatch)},
		{Name: MetricTrajectoryPrecision, New: newVertexTrajectory(MetricTrajectoryPrecision)},
		{Name: MetricTrajectoryRecall, New: newVertexTrajectory(MetricTrajectoryRecall)},
		{Name: MetricTrajectorySingleToolUse, New: newVertexTrajectory(MetricTrajectorySingleToolUse)},
		{Name: MetricToolTrajectoryAvgScore, New: newADKToolTrajectory},
		{Name: MetricRagasToolCallAccuracy, New: newRagasToolCallAccuracy},
		{Name: MetricRagasToolCallF1, New: scorer.NoParams(ragasToolCallF1{})},
	}
}
