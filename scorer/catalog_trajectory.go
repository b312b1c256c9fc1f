package scorer

// trajectoryMetrics lists the tool-call and trajectory metrics of Vertex AI,
// Google ADK and Ragas.
func trajectoryMetrics() []builtin {
	return []builtin{
		{MetricToolCallValid, newVertexToolCall(MetricToolCallValid)},
		{MetricToolNameMatch, newVertexToolCall(MetricToolNameMatch)},
		{MetricToolParameterKeyMatch, newVertexToolCall(MetricToolParameterKeyMatch)},
		{MetricToolParameterKVMatch, newVertexToolCall(MetricToolParameterKVMatch)},
		{MetricTrajectoryExactMatch, newVertexTrajectory(MetricTrajectoryExactMatch)},
		{MetricTrajectoryInOrderMatch, newVertexTrajectory(MetricTrajectoryInOrderMatch)},
		{MetricTrajectoryAnyOrderMatch, newVertexTrajectory(MetricTrajectoryAnyOrderMatch)},
		{MetricTrajectoryPrecision, newVertexTrajectory(MetricTrajectoryPrecision)},
		{MetricTrajectoryRecall, newVertexTrajectory(MetricTrajectoryRecall)},
		{MetricTrajectorySingleToolUse, newVertexTrajectory(MetricTrajectorySingleToolUse)},
		{MetricToolTrajectoryAvgScore, newADKToolTrajectory},
		{MetricRagasToolCallAccuracy, newRagasToolCallAccuracy},
		{MetricRagasToolCallF1, noParams(ragasToolCallF1{})},
	}
}
