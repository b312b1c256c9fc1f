package scorer

// trajectoryMetrics lists the tool-call and trajectory metrics of Vertex AI,
// Google ADK and Ragas.
func trajectoryMetrics() []builtin { return nil }
