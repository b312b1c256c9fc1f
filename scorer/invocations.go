package scorer

// PerInvocation scores, as Google ADK does, every invocation of in that has
// a reference; an instance without invocations is one invocation (its
// prompt, response, reference and trajectories) when it has the inputs of
// whole. The scores are in invocation order; none means not applicable.
func PerInvocation(in *Instance, whole Inputs, score func(inv *Invocation) float64) []float64 {
	var per []float64
	if len(in.Invocations) == 0 {
		if in.Has&whole != 0 {
			per = append(per, score(&Invocation{
				UserContent: in.Prompt, Response: in.Response, Reference: in.Reference,
				PredictedToolCalls: in.PredictedTrajectory, ReferenceToolCalls: in.ReferenceTrajectory, HasReference: true,
			}))
		}
		return per
	}
	for i := range in.Invocations {
		if inv := &in.Invocations[i]; inv.HasReference {
			per = append(per, score(inv))
		}
	}
	return per
}

// MeanVerdict averages per-invocation scores as Google ADK does and labels
// the mean "passed" when it reaches threshold, else "failed".
func MeanVerdict(per []float64, threshold float64) (float64, string) {
	sum := 0.0
	for _, s := range per {
		sum += s
	}
	score := sum / float64(len(per))
	if score >= threshold {
		return score, "passed"
	}
	return score, "failed"
}
