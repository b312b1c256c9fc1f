package sampling

import "testing"

func TestOutcomes(t *testing.T) {
	want := map[Outcome]string{
		OutcomeSampled: "sampled", OutcomeAlways: "always", OutcomeSampledOut: "sampled_out",
		OutcomeFiltered: "filtered",
	}
	for o, s := range want {
		if string(o) != s {
			t.Errorf("outcome %q, want label value %q", o, s)
		}
	}
}
