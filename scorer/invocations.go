package scorer

// perInvocation scores, as Google ADK does, every invocation of in that has
// a reference; an instance without invocations is one invocation (its
// prompt, response, reference and trajectories) when it has the inputs of
// whole. The scores are in invocation order; none means not applicable.
func perInvocation(in *Instance, whole Inputs, score func(in *Instance, inv *Invocation) float64) []float64 {
	var per []float64
	if len(in.Invocations) == 0 {
		if in.Has&whole != 0 {
			per = append(per, score(in, &Invocation{
				UserContent: in.Prompt, Response: in.Response, Reference: in.Reference,
				PredictedToolCalls: in.PredictedTrajectory, ReferenceToolCalls: in.ReferenceTrajectory, HasReference: true,
			}))
		}
		return per
	}
	for i := range in.Invocations {
		if inv := &in.Invocations[i]; inv.HasReference {
			per = append(per, score(in, inv))
		}
	}
	return per
}

// PerInvocationMean returns an Inline metric named id that scores as
// Google ADK scores a criterion: each invocation (see perInvocation;
// whole are the inputs of an instance without invocations) is scored,
// and the mean is labelled "passed" when it reaches threshold, else
// "failed"; with no invocation to score the metric does not apply.
// details gives the result's Details from the per-invocation scores. Its
// semantics are a 0–1 ratio, described by desc, that passes at threshold
// as the label does.
func PerInvocationMean(id string, whole Inputs, threshold float64, desc string,
	score func(in *Instance, inv *Invocation) float64, details func(per []float64) map[string]any) Metric {
	return DescribedFunc(id, 0, Ratio(HigherIsBetter, desc).WithPass(">=", threshold), func(in *Instance) (Result, error) {
		per := perInvocation(in, whole, score)
		if len(per) == 0 {
			return Result{}, ErrNotApplicable
		}
		sum := 0.0
		for _, s := range per {
			sum += s
		}
		r := Result{Score: sum / float64(len(per)), Label: "failed", Details: details(per)}
		if r.Score >= threshold {
			r.Label = "passed"
		}
		return r, nil
	})
}
